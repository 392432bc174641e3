extension WebPage {
  static let script = #"""
    "use strict";
    const session = sessionStorage.getItem("tandem-session") ||
      (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
    sessionStorage.setItem("tandem-session", session);
    let view = null;
    let navigatedOnce = false;
    const $ = (id) => document.getElementById(id);
    const caseOf = (value) => value ? Object.keys(value)[0] : null;
    const esc = (text) => String(text ?? "").replace(/[&<>"']/g,
      (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));

    // Actions leave this page one at a time, each after the one before was applied, so they
    // take effect in the order they were made: the first view's own navigation never lands
    // after a click that followed it.
    let sending = Promise.resolve();
    function send(tag, payload) {
      const sent = sending.then(() => post(tag, payload));
      sending = sent;
      return sent;
    }

    async function post(tag, payload) {
      const footer = $("outcome");
      try {
        const response = await fetch("/api/actions", {method: "POST",
          headers: {"Content-Type": "application/json"}, body: JSON.stringify({tag, payload})});
        const answer = await response.json();
        if (response.ok) {
          footer.className = "";
          footer.textContent = tag + " applied at sequence " + answer.sequence;
        } else {
          footer.className = "error";
          footer.textContent = tag + " failed (" + response.status + "): " + answer.error;
        }
        return response.ok;
      } catch (error) {
        footer.className = "error";
        footer.textContent = tag + " failed: " + error;
        return false;
      }
    }

    const navigate = (screen) => send("github.navigate", {session, route: {screen}});
    const requestLoad = (target) => send("github.load.request", {session, target});
    const openOwner = (owner) => navigate({repositories: {_0: {owner: {_0: owner}}}});
    const openMine = () => navigate({repositories: {_0: {signedInUser: {}}}});
    const openRepository = (owner, name) => navigate({repository: {owner, name}});
    const openBookmarks = () => navigate({bookmarks: {}});
    const isBookmarked = (owner, name) => view.bookmarks.some((b) =>
      (b.owner + "/" + b.name).toLowerCase() === (owner + "/" + name).toLowerCase());
    const toggleBookmark = (owner, name) => send(
      isBookmarked(owner, name) ? "github.bookmark.remove" : "github.bookmark.add", {owner, name});

    function statusLine(status) {
      switch (caseOf(status)) {
        case "loading": return '<p class="status">Loading…</p>';
        case "failed": {
          const failure = status.failed._0;
          const retry = failure.retryAt ? " (retry after " +
            new Date(failure.retryAt * 1000).toLocaleTimeString() + ")" : "";
          return '<p class="status failed">' + esc(failure.kind) + ": " + esc(failure.message) +
            esc(retry) + ' <button class="link" data-action="retry">Retry</button></p>';
        }
        default: return "";
      }
    }

    function starButton(owner, name) {
      const on = isBookmarked(owner, name);
      return '<button class="star' + (on ? " on" : "") + '" data-action="bookmark" data-repo="' +
        esc(owner + "/" + name) + '">' + (on ? "★ Bookmarked" : "☆ Bookmark") + "</button>";
    }

    function renderList(source, list) {
      const title = caseOf(source) === "owner" ? source.owner._0 + "’s repositories"
        : "Repositories of the signed-in user";
      let html = "<h2>" + esc(title) + "</h2>" + statusLine(list.status) + "<table>";
      for (const repo of list.repositories) {
        html += '<tr><td><button class="link" data-action="open" data-repo="' +
          esc(repo.owner + "/" + repo.name) + '"><strong>' + esc(repo.name) + "</strong></button>" +
          (repo.isPrivate ? " <small>private</small>" : "") + "<br><small>" +
          esc(repo.description || "") + "</small></td><td class=num>" + esc(repo.language || "") +
          "</td><td class=num>★ " + repo.stars + "</td><td class=num>" +
          starButton(repo.owner, repo.name) + "</td></tr>";
      }
      html += "</table>";
      if (list.nextPage) {
        html += '<p><button data-action="more" data-page="' + list.nextPage + '">Load page ' +
          list.nextPage + (list.lastPage ? " of " + list.lastPage : "") + "</button></p>";
      } else if (list.lastPage > list.pagesLoaded) {
        html += '<p class="status">The first ' + list.pagesLoaded + " pages of " + list.lastPage +
          " are shown: the browser loads no more of a list.</p>";
      }
      return html;
    }

    function renderDetail(owner, name, detail) {
      const summary = detail.summary;
      let html = '<p><button class="link" data-action="back" data-owner="' + esc(owner) +
        '">← ' + esc(owner) + "</button></p><h2>" + esc(owner + "/" + name) + " " +
        starButton(owner, name) + "</h2>" + statusLine(detail.status);
      if (summary) {
        html += "<p>" + esc(summary.description || "No description.") + "</p><p class=status>" +
          esc(summary.language || "") + " · ★ " + summary.stars + " · forks " + summary.forks +
          " · default branch <code>" + esc(summary.defaultBranch) + "</code></p>";
      }
      html += '<div class="columns"><div class="box"><h3>Branches</h3><ul>' +
        detail.branches.map((b) => "<li><code>" + esc(b.name) + "</code> " +
          esc(b.sha.slice(0, 7)) + (b.isProtected ? " (protected)" : "") + "</li>").join("") +
        '</ul></div><div class="box"><h3>Recent commits</h3><ul>' +
        detail.commits.map((c) => "<li><code>" + esc(c.sha.slice(0, 7)) + "</code> " +
          esc(c.title) + " <small>— " + esc(c.author) + ", " + esc(c.date.slice(0, 10)) +
          "</small></li>").join("") + "</ul></div></div>";
      if (detail.readme) html += '<div class="box"><h3>README</h3><pre class="readme">' +
        esc(detail.readme) + "</pre>" + (detail.fullReadmeBytes ? '<p class="status">README ' +
        "truncated, " + detail.fullReadmeBytes.toLocaleString() + " bytes: only its beginning " +
        "is shown.</p>" : "") + "</div>";
      else if (caseOf(detail.status) === "loaded") html += '<p class="status">No README.</p>';
      return html;
    }

    function renderBookmarks() {
      if (view.bookmarks.length === 0) {
        return "<h2>Bookmarks</h2><p class=status>No bookmarks yet: open a repository and bookmark it.</p>";
      }
      return "<h2>Bookmarks</h2><table>" + view.bookmarks.map((b) =>
        '<tr><td><button class="link" data-action="open" data-repo="' + esc(b.owner + "/" + b.name) +
        '">' + esc(b.owner + "/" + b.name) + "</button></td><td class=num>" +
        starButton(b.owner, b.name) + "</td></tr>").join("") + "</table>";
    }

    function render() {
      const badge = $("connection");
      badge.className = "badge " + view.connection;
      badge.textContent = {live: "live", disconnected: "disconnected"}[view.connection] ||
        "reconnecting…";
      const identity = view.identity;
      const refused = identity.tokenRefused;
      $("identity").textContent = caseOf(identity) === "signedIn" ? "signed in as " +
        identity.signedIn.login : caseOf(identity) === "anonymous" ? "anonymous" : refused ?
        "GitHub refused the token (" + refused.status + " " + refused.message + ")" :
        "no worker yet";
      const rate = view.rateLimit;
      $("rate").textContent = rate ? "API " + rate.remaining + "/" + rate.limit + " until " +
        new Date(rate.resetAt * 1000).toLocaleTimeString() : "";
      $("pending").textContent = view.pendingLoads ? view.pendingLoads + " load(s) pending" : "";
      $("nav-bookmarks").textContent = "Bookmarks (" + view.bookmarks.length + ")";
      const screen = view.route ? view.route.screen : null;
      let html;
      switch (caseOf(screen)) {
        case "repositories": html = renderList(screen.repositories._0, view.list); break;
        case "repository":
          html = renderDetail(screen.repository.owner, screen.repository.name, view.detail); break;
        case "bookmarks": html = renderBookmarks(); break;
        default: html = '<p class="status">Choose an owner above, or your repositories.</p>';
      }
      $("main").innerHTML = html;
      document.body.dataset.screen = caseOf(screen) || "none";
      document.body.dataset.bookmarks = view.bookmarks.map((b) => b.owner + "/" + b.name).join(" ");
      if (!view.route && !navigatedOnce && caseOf(identity)) {
        navigatedOnce = true;
        if (caseOf(identity) === "signedIn") openMine(); else openBookmarks();
      }
    }

    $("main").addEventListener("click", (event) => {
      const target = event.target.closest("[data-action]");
      if (!target || !view) return;
      const [owner, name] = (target.dataset.repo || "/").split("/");
      const screen = view.route ? view.route.screen : null;
      switch (target.dataset.action) {
        case "open": openRepository(owner, name); break;
        case "bookmark": toggleBookmark(owner, name); break;
        case "back": openOwner(target.dataset.owner); break;
        case "more":
          requestLoad({repositories: {_0: screen.repositories._0,
            page: Number(target.dataset.page)}});
          break;
        case "retry":
          if (caseOf(screen) === "repository") requestLoad({repository: screen.repository});
          else if (caseOf(screen) === "repositories") requestLoad({repositories:
            {_0: screen.repositories._0, page: 1}});
          break;
      }
    });
    $("nav-mine").addEventListener("click", openMine);
    $("nav-bookmarks").addEventListener("click", openBookmarks);
    $("owner-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const owner = $("owner").value.trim();
      if (owner) openOwner(owner);
    });
    window.addEventListener("pagehide", () => navigator.sendBeacon("/api/actions",
      JSON.stringify({tag: "github.session.end", payload: {session}})));

    const events = new EventSource("/api/events?session=" + encodeURIComponent(session));
    events.addEventListener("view", (event) => { view = JSON.parse(event.data); render(); });
    events.onerror = () => {
      const badge = $("connection");
      badge.className = "badge reconnecting";
      badge.textContent = "reconnecting…";
    };
    window.tandem = {session, send, navigate, openOwner, openRepository, openBookmarks,
      toggleBookmark, view: () => view};
    """#
}
