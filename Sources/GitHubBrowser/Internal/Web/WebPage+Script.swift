extension WebPage {
  /// The core of the page's script: the session, sending actions in order, the routes and the
  /// address bar, the event stream and the connection banner. ``renderScript`` draws screens.
  static let coreScript = #"""
    const session = sessionStorage.getItem("tandem-session") ||
      (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
    sessionStorage.setItem("tandem-session", session);
    let view = null;
    let streamDown = false;
    const debug = {lastSequence: null, lastAction: null, unsent: 0};
    const $ = (id) => document.getElementById(id);
    const caseOf = (value) => value ? Object.keys(value)[0] : null;
    const esc = (text) => String(text ?? "").replace(/[&<>"']/g,
      (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));

    // What each action is called on the page when it fails.
    const actionNames = {"github.navigate": "Opening the screen",
      "github.bookmark.add": "Adding the bookmark", "github.bookmark.remove": "Removing the bookmark",
      "github.load.request": "Loading"};

    // Actions leave this page one at a time, each after the one before was applied, so they
    // take effect in the order they were made.
    let sending = Promise.resolve();
    function send(tag, payload) {
      const sent = sending.then(() => post(tag, payload));
      sending = sent;
      return sent;
    }

    function say(text, isError) {
      const outcome = $("outcome");
      outcome.className = isError ? "error" : "";
      outcome.textContent = text;
    }

    async function post(tag, payload) {
      const name = actionNames[tag] || "The action";
      debug.unsent += 1;
      renderDebug();
      try {
        const response = await fetch("/api/actions", {method: "POST",
          headers: {"Content-Type": "application/json"}, body: JSON.stringify({tag, payload})});
        const answer = await response.json().catch(() => ({}));
        if (response.ok) {
          debug.lastSequence = answer.sequence;
          debug.lastAction = tag;
          say("", false);
        } else if (response.status === 504) {
          say("Offline: your change will be sent when the connection is back.", false);
        } else if (response.status === 422) {
          say(name + " was refused: " + (answer.error || "the service said no") + ".", true);
        } else {
          say(name + " failed: " + (answer.error || "the service answered " + response.status) +
            ".", true);
        }
        return response.ok;
      } catch (error) {
        say(name + " failed: this front end cannot be reached. Try again once it is back.", true);
        return false;
      } finally {
        debug.unsent -= 1;
        renderDebug();
      }
    }

    // Routes and paths, as Route.Screen(path:) and Route.Screen.path read and write them.
    const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
    const REPOSITORY_NAME = /^[A-Za-z0-9._-]{1,100}$/;
    const RESERVED = ["api", "assets"];
    const mine = () => ({repositories: {_0: {signedInUser: {}}}});
    const ownerScreen = (owner) => ({repositories: {_0: {owner: {_0: owner}}}});
    function screenOfPath(path) {
      let parts = path.split("/").slice(1);
      if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
      if (parts.length === 1 && parts[0] === "") return mine();
      try { parts = parts.map(decodeURIComponent); } catch (error) { return null; }
      if (parts.length === 1 && parts[0] === "bookmarks") return {bookmarks: {}};
      if (parts.length < 1 || parts.length > 2 || parts.includes("")) return null;
      const [owner, name] = parts;
      if (RESERVED.includes(owner.toLowerCase()) || !LOGIN.test(owner)) return null;
      if (parts.length === 1) return ownerScreen(owner);
      if (!REPOSITORY_NAME.test(name) || name === "." || name === "..") return null;
      return {repository: {owner, name}};
    }
    function pathOfScreen(screen) {
      switch (caseOf(screen)) {
        case "repositories": {
          const source = screen.repositories._0;
          return caseOf(source) === "owner" ? "/" + encodeURIComponent(source.owner._0) : "/";
        }
        case "repository":
          return "/" + encodeURIComponent(screen.repository.owner) + "/" +
            encodeURIComponent(screen.repository.name);
        case "bookmarks": return "/bookmarks";
        default: return "/";
      }
    }

    const navigate = (screen) => send("github.navigate", {session, route: {screen}});
    // Opens a screen and gives it a history entry, so back and forward return to it.
    function go(screen) {
      const path = pathOfScreen(screen);
      if (path !== location.pathname) history.pushState(null, "", path);
      return navigate(screen);
    }
    const requestLoad = (target) => send("github.load.request", {session, target});
    const openOwner = (owner) => go(ownerScreen(owner));
    const openMine = () => go(mine());
    const openRepository = (owner, name) => go({repository: {owner, name}});
    const openBookmarks = () => go({bookmarks: {}});
    const isBookmarked = (owner, name) => view.bookmarks.some((b) =>
      (b.owner + "/" + b.name).toLowerCase() === (owner + "/" + name).toLowerCase());
    const toggleBookmark = (owner, name) => send(
      isBookmarked(owner, name) ? "github.bookmark.remove" : "github.bookmark.add", {owner, name});

    // Opens the screen the address names: at load, after back or forward. "/" is the signed-in
    // user's repositories, or the bookmarks when the service has no signed-in user; it waits
    // for the first view to say who is signed in (and for the first worker, on the service's
    // own token), and opens nothing while the browser must sign in first.
    let waitingForIdentity = false;
    function openAddress() {
      const screen = screenOfPath(location.pathname);
      waitingForIdentity = false;
      if (!screen) { location.reload(); return; }
      if (!view) { waitingForIdentity = true; return; }
      if (view.signInRequired) return;
      if (caseOf(screen) !== "repositories" || caseOf(screen.repositories._0) !== "signedInUser") {
        navigate(screen);
        return;
      }
      const identity = view ? caseOf(view.identity) : null;
      if (identity === "signedIn") navigate(screen);
      else if (identity && identity !== "unknown") {
        history.replaceState(null, "", "/bookmarks");
        navigate({bookmarks: {}});
      } else waitingForIdentity = true;
    }

    function renderConnection() {
      const connection = streamDown ? "reconnecting" : view ? view.connection : "reconnecting";
      const badge = $("connection");
      badge.className = "badge " + connection;
      badge.textContent = {live: "live", disconnected: "disconnected"}[connection] ||
        "offline";
      const banner = $("offline");
      banner.hidden = connection === "live";
      banner.textContent = streamDown ?
        "Offline: this front end cannot be reached; the page reconnects by itself." :
        connection === "disconnected" ?
        "Disconnected: this front end has stopped following the service; reload once it is restarted." :
        "Offline: your change will be sent when the connection is back.";
    }

    function renderDebug() {
      const facts = {session, "last action": debug.lastAction ? debug.lastAction + " at sequence " +
        debug.lastSequence : "none yet", "actions in flight": debug.unsent};
      if (view) {
        facts.connection = view.connection;
        facts["pending loads"] = view.pendingLoads;
        facts["open sessions"] = view.sessions;
      }
      $("debug-facts").innerHTML = Object.entries(facts).map(([key, value]) =>
        "<dt>" + esc(key) + "</dt><dd>" + esc(value) + "</dd>").join("");
    }

    function start() {
      $("main").addEventListener("click", onClick);
      $("nav-mine").addEventListener("click", openMine);
      $("nav-bookmarks").addEventListener("click", openBookmarks);
      $("owner-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const owner = $("owner").value.trim();
        if (!owner) return;
        if (!LOGIN.test(owner)) {
          say("“" + owner + "” is not a GitHub login: letters, digits and hyphens only.", true);
          return;
        }
        openOwner(owner);
      });
      window.addEventListener("popstate", openAddress);
      window.addEventListener("pagehide", () => navigator.sendBeacon("/api/actions",
        JSON.stringify({tag: "github.session.end", payload: {session}})));

      const events = new EventSource("/api/events?session=" + encodeURIComponent(session));
      events.addEventListener("view", (event) => {
        view = JSON.parse(event.data);
        streamDown = false;
        if (waitingForIdentity) openAddress();
        render();
      });
      events.onerror = () => { streamDown = true; renderConnection(); };
      openAddress();
      renderDebug();
    }

    window.tandem = {session, send, navigate, openOwner, openRepository, openBookmarks,
      toggleBookmark, screenOfPath, pathOfScreen, view: () => view};
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
    """#
}
