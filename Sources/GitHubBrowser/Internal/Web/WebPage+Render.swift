extension WebPage {
  /// The screens of the page's script: the list, the repository, the bookmarks, and how a
  /// load's failure or wait is told (in words, with GitHub's own message behind "Details").
  static let renderScript = #"""
    const plural = (count, one, many) => count + " " + (count === 1 ? one : many);
    const clock = (seconds) => new Date(seconds * 1000).toLocaleTimeString([],
      {hour: "2-digit", minute: "2-digit"});

    // A failed load in words: what happened, whether a retry can help, and GitHub's message.
    function describeFailure(failure, subject) {
      switch (failure.kind) {
        case "notFound":
          return {text: subject.missing, retry: false};
        case "signedOut":
          return {text: "You have signed out, so nothing can load this: sign in again.",
            retry: false};
        case "unauthorized":
          if (view.canSignOut) return {text: failure.status === 401 ? "GitHub refused your " +
            "sign-in: sign out and sign in again." : "GitHub does not let you see this.",
            retry: false};
          return {text: failure.status === 401 ? "GitHub refused the service’s token, so this " +
            "cannot be loaded until an operator configures a valid one." :
            "GitHub does not let the service’s token see this.", retry: false};
        case "rateLimited":
          return {waiting: true, retry: false, text: failure.retryAt ?
            "GitHub’s rate limit for this account resets at " + clock(failure.retryAt) +
            ": this loads by itself then." : "GitHub asked the service to slow down: this " +
            "loads by itself in a minute."};
        case "timedOut":
          return {text: "GitHub did not answer in time.", retry: true};
        case "network":
          return {text: "The service could not reach GitHub.", retry: true};
        case "queueFull":
          return {text: "The service has too many loads waiting right now.", retry: true};
        case "sessionQueueFull":
          return {text: "This tab has too many loads waiting right now.", retry: true};
        default:
          if (failure.status === 451) return {text: "GitHub blocks access to this for legal " +
            "reasons.", retry: false};
          if (failure.status >= 400 && failure.status < 500) return {text: "GitHub refused " +
            "the request.", retry: false};
          return {text: "GitHub had a problem answering.", retry: true};
      }
    }

    function statusLine(status, subject) {
      switch (caseOf(status)) {
        case "loading": {
          // A worker claims nothing while GitHub's limit for the account is used up: say so.
          const rate = view.rateLimit;
          if (rate && rate.remaining === 0 && rate.resetAt * 1000 > Date.now()) {
            return '<div class="waiting"><p>' + esc("Waiting: GitHub’s rate limit for this " +
              "account resets at " + clock(rate.resetAt) + ", then this loads.") + "</p></div>";
          }
          return '<p class="status">Loading…</p>';
        }
        case "failed": {
          const failure = status.failed._0;
          const told = describeFailure(failure, subject);
          return '<div class="' + (told.waiting ? "waiting" : "problem") + '"><p>' +
            esc(told.text) + (told.retry ?
              ' <button class="action" data-action="retry">Try again</button>' : "") +
            "</p><details><summary>Details</summary><pre>" + esc(failure.message) +
            "</pre></details></div>";
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
      const owner = caseOf(source) === "owner" ? source.owner._0 : null;
      const title = owner ? owner + "’s repositories" : "My repositories";
      const subject = {missing: owner ? "There is no GitHub user or organization called “" +
        owner + "”." : "GitHub does not know the signed-in user."};
      let html = "<h2>" + esc(title) + "</h2>" + statusLine(list.status, subject);
      if (list.repositories.length === 0) {
        if (caseOf(list.status) === "loaded") html += '<p class="empty">' + esc(owner ?
          owner + " has no public repositories." : "You have no repositories yet.") + "</p>";
        return html;
      }
      html += "<table>";
      for (const repo of list.repositories) {
        html += '<tr><td><button class="link" data-action="open" data-repo="' +
          esc(repo.owner + "/" + repo.name) + '"><strong>' + esc(repo.name) + "</strong></button>" +
          (repo.isPrivate ? " <small>private</small>" : "") + "<br><small>" +
          esc(repo.description || "") + '</small></td><td class="num lang">' +
          esc(repo.language || "") + '</td><td class="num">★ ' + esc(repo.stars) +
          '</td><td class="num">' + starButton(repo.owner, repo.name) + "</td></tr>";
      }
      html += "</table>";
      if (list.nextPage) {
        html += '<p><button class="action" data-action="more" data-page="' + esc(list.nextPage) +
          '">Load more (page ' + esc(list.nextPage) + (list.lastPage ? " of " +
          esc(list.lastPage) : "") + ")</button></p>";
      } else if (list.lastPage > list.pagesLoaded) {
        html += '<p class="status">The first ' + esc(list.pagesLoaded) + " pages of " +
          esc(list.lastPage) + " are shown: the browser loads no more of a list.</p>";
      }
      return html;
    }

    function renderDetail(owner, name, detail) {
      const summary = detail.summary;
      const subject = {missing: "There is no repository " + owner + "/" + name +
        " on GitHub, or it is private."};
      let html = '<p><button class="link" data-action="back" data-owner="' + esc(owner) +
        '">← ' + esc(owner) + "</button></p><h2>" + esc(owner + "/" + name) + " " +
        starButton(owner, name) + "</h2>" + statusLine(detail.status, subject);
      if (summary) {
        html += "<p>" + esc(summary.description || "No description.") + '</p><p class="status">' +
          (summary.language ? esc(summary.language) + " · " : "") + "★ " + esc(summary.stars) +
          " · " + plural(summary.forks, "fork", "forks") + " · default branch <code>" +
          esc(summary.defaultBranch) + "</code></p>";
      }
      if (caseOf(detail.status) !== "loaded") return html;
      if (detail.branches.length === 0 && detail.commits.length === 0 && !detail.readme) {
        return html + '<p class="empty">This repository is empty: nothing has been pushed ' +
          "to it yet.</p>";
      }
      html += '<div class="columns"><div class="box"><h3>Branches</h3>' +
        (detail.branches.length ? "<ul>" + detail.branches.map((b) => "<li><code>" +
          esc(b.name) + "</code> " + esc(b.sha.slice(0, 7)) + (b.isProtected ? " (protected)" :
          "") + "</li>").join("") + "</ul>" : '<p class="status">No branches.</p>') +
        '</div><div class="box"><h3>Recent commits</h3>' +
        (detail.commits.length ? "<ul>" + detail.commits.map((c) => "<li><code>" +
          esc(c.sha.slice(0, 7)) + "</code> " + esc(c.title) + " <small>— " + esc(c.author) +
          ", " + esc(c.date.slice(0, 10)) + "</small></li>").join("") + "</ul>" :
          '<p class="status">No commits yet.</p>') + "</div></div>";
      // readmeHTML comes from the front end's MarkdownHTML: escaped, with a fixed set of tags.
      if (view.readmeHTML) html += '<div class="box"><h3>README</h3><div class="markdown">' +
        view.readmeHTML + "</div>" + (detail.fullReadmeBytes ? '<p class="status">The README ' +
        "is long (" + detail.fullReadmeBytes.toLocaleString() + " bytes): only its beginning " +
        "is shown.</p>" : "") + "</div>";
      else html += '<p class="status">This repository has no README.</p>';
      return html;
    }

    function renderBookmarks() {
      if (view.bookmarks.length === 0) {
        return '<h2>Bookmarks</h2><p class="empty">No bookmarks yet: open a repository and ' +
          "bookmark it, and it shows here in every front end.</p>";
      }
      return "<h2>Bookmarks</h2><table>" + view.bookmarks.map((b) =>
        '<tr><td><button class="link" data-action="open" data-repo="' + esc(b.owner + "/" + b.name) +
        '">' + esc(b.owner + "/" + b.name) + '</button></td><td class="num">' +
        starButton(b.owner, b.name) + "</td></tr>").join("") + "</table>";
    }

    function renderHeader() {
      const identity = view.identity;
      $("identity").textContent = caseOf(identity) === "signedIn" ? "signed in as " +
        identity.signedIn.login : caseOf(identity) === "anonymous" ? "not signed in" :
        caseOf(identity) === "tokenRefused" ? "GitHub refused the service’s token" :
        "waiting for a worker";
      const rate = view.rateLimit;
      $("rate").textContent = rate ? plural(rate.remaining, "GitHub request", "GitHub requests") +
        " left until " + clock(rate.resetAt) : "";
      $("pending").textContent = view.pendingLoads ?
        plural(view.pendingLoads, "load", "loads") + " in progress" : "";
      $("nav-bookmarks").textContent = "Bookmarks (" + view.bookmarks.length + ")";
      $("sign-out").hidden = !view.canSignOut;
      document.querySelector("nav").hidden = view.signInRequired;
    }

    function renderSignIn() {
      return '<h2>Sign in</h2><p>Sign in with your GitHub account to see your repositories, ' +
        'your private ones too, and your bookmarks.</p><p><a id="sign-in" class="action" ' +
        'href="/api/auth/signin?next=' + esc(encodeURIComponent(location.pathname)) +
        '">Sign in with GitHub</a></p>';
    }

    function render() {
      renderConnection();
      renderHeader();
      renderDebug();
      const screen = view.route ? view.route.screen : null;
      let html;
      if (view.signInRequired) {
        $("main").innerHTML = renderSignIn();
        document.body.dataset.screen = "sign-in";
        document.body.dataset.bookmarks = "";
        return;
      }
      switch (caseOf(screen)) {
        case "repositories": html = renderList(screen.repositories._0, view.list); break;
        case "repository":
          html = renderDetail(screen.repository.owner, screen.repository.name, view.detail); break;
        case "bookmarks": html = renderBookmarks(); break;
        default: html = waitingForIdentity ?
          '<p class="status">Waiting for a worker to sign in to GitHub…</p>' :
          '<p class="status">Opening…</p>';
      }
      $("main").innerHTML = html;
      document.body.dataset.screen = caseOf(screen) || "none";
      document.body.dataset.bookmarks = view.bookmarks.map((b) => b.owner + "/" + b.name).join(" ");
    }

    function onClick(event) {
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
    }
    """#
}
