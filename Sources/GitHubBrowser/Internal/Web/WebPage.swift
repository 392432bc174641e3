/// The front end's single page: an HTML document, its style sheet and its vanilla script, each
/// served from the front end itself, nothing from elsewhere. The script opens `/api/events`
/// for its session (kept in `sessionStorage`, so each tab is its own client), renders every
/// `view` event, POSTs actions to `/api/actions`, and keeps the address bar on the screen's
/// path (see ``Route/Screen/path``).
///
/// The page, its script and its style are served with ``securityHeaders``: a
/// Content-Security-Policy that lets the page run only the script it loads from its own origin,
/// so no text from GitHub (a README, a description) can run even if it slipped through
/// escaping.
enum WebPage {
  /// Where the script is served.
  static let scriptPath = "/assets/page.js"
  /// Where the style sheet is served.
  static let stylePath = "/assets/page.css"

  /// The document served at every screen's path: the script reads the address and opens its
  /// screen.
  static let html = head(title: "GitHub browser · Tandem") + body + "</html>\n"

  /// The document of a 404: a path that names no screen.
  static func notFoundHTML(path: String) -> String {
    head(title: "Not found · GitHub browser")
      + "<body>\n<header><h1><a class=\"home\" href=\"/\">GitHub browser</a></h1></header>\n"
      + "<main><h2>No such page</h2><p class=\"status\">There is no screen at <code>"
      + escaped(path)
      + "</code>. Screens are <code>/</code> (your repositories), <code>/bookmarks</code>, "
      + "<code>/{owner}</code> and <code>/{owner}/{repository}</code>.</p>"
      + "<p><a href=\"/\">Go to your repositories</a></p></main>\n</body>\n</html>\n"
  }

  /// A page that says one thing (a sign-in that did not work, say) and links on.
  static func messageHTML(
    title: String, text: String, link: (href: String, label: String)
  )
    -> String
  {
    head(title: escaped(title) + " · GitHub browser")
      + "<body>\n<header><h1><a class=\"home\" href=\"/\">GitHub browser</a></h1></header>\n"
      + "<main><h2>" + escaped(title) + "</h2><p class=\"status\">" + escaped(text)
      + "</p><p><a class=\"action\" href=\"" + escaped(link.href) + "\">" + escaped(link.label)
      + "</a></p></main>\n</body>\n</html>\n"
  }

  /// The headers of the page and its assets: the Content-Security-Policy (scripts, styles and
  /// connections from the page's own origin only; no plugins, frames, forms elsewhere or base
  /// URL), no MIME sniffing, no referrer sent to GitHub's links.
  static let securityHeaders: [String: String] = [
    "Content-Security-Policy": contentSecurityPolicy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  ]

  /// The page's Content-Security-Policy.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    + "img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

  /// The page's script: its core (``coreScript``) and its screens (``renderScript``).
  static let script = "\"use strict\";\n" + coreScript + "\n" + renderScript

  private static func head(title: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(title)</title>
    <link rel="stylesheet" href="\(stylePath)">
    <script src="\(scriptPath)" defer></script>
    </head>

    """
  }

  private static func escaped(_ text: String) -> String {
    String(decoding: MarkdownEscape.html(text.utf8), as: UTF8.self)
  }

  private static let body = #"""
    <body>
    <header>
      <h1><a class="home" href="/">GitHub browser</a></h1>
      <span id="connection" class="badge reconnecting">connecting…</span>
      <nav>
        <button id="nav-mine" type="button">My repositories</button>
        <button id="nav-bookmarks" type="button">Bookmarks</button>
        <form id="owner-form"><input id="owner" placeholder="owner, e.g. octo-org"
          aria-label="GitHub owner" autocapitalize="off" spellcheck="false">
          <button type="submit">Show</button></form>
      </nav>
      <span id="identity" class="meta"></span>
      <form id="sign-out" method="post" action="/api/auth/signout" hidden><button
        type="submit">Sign out</button></form>
      <span id="rate" class="meta"></span>
      <span id="pending" class="meta"></span>
    </header>
    <div id="offline" class="offline" role="status" hidden></div>
    <main id="main"><p class="status">Loading…</p></main>
    <footer>
      <span id="outcome" role="status"></span>
      <details id="debug"><summary>Debug</summary><dl id="debug-facts"></dl></details>
    </footer>
    </body>

    """#
}
