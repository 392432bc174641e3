/// The front end's single page: HTML, CSS and a vanilla script, with nothing loaded from
/// elsewhere. The script opens `/api/events` for its session (kept in `sessionStorage`, so
/// each tab is its own client), renders every `view` event, and POSTs actions to
/// `/api/actions`, showing each outcome.
enum WebPage {
  static let html = head + body + "<script>\n" + script + "\n</script>\n</body>\n</html>\n"

  private static let head = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>GitHub browser · Tandem</title>
    <style>
      :root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --bg: #f6f8fa; }
      * { box-sizing: border-box; }
      body { margin: 0; font: 14px/1.5 system-ui, sans-serif; color: var(--fg); }
      header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 10px 20px;
        background: #24292f; color: #fff; }
      header h1 { font-size: 16px; margin: 0 12px 0 0; }
      header button, header input { font: inherit; }
      nav { display: flex; gap: 8px; align-items: center; }
      .badge { padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 12px; }
      .badge.live { background: #1a7f37; }
      .badge.reconnecting { background: #bf8700; }
      .badge.disconnected { background: #cf222e; }
      .meta { color: #d1d9e0; font-size: 12px; }
      main { max-width: 980px; margin: 0 auto; padding: 16px 20px 60px; }
      h2 { margin: 8px 0 12px; font-size: 20px; }
      table { width: 100%; border-collapse: collapse; }
      td { padding: 8px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
      td.num { text-align: right; white-space: nowrap; color: var(--muted); }
      a, .link { color: var(--accent); cursor: pointer; text-decoration: none; background: none;
        border: 0; padding: 0; font: inherit; }
      button.star { border: 1px solid var(--line); background: var(--bg); border-radius: 6px;
        padding: 2px 8px; cursor: pointer; white-space: nowrap; }
      button.star.on { background: #fff8c5; border-color: #d4a72c; }
      .status { color: var(--muted); margin: 6px 0; }
      .status.failed { color: #cf222e; }
      .columns { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
      .box { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
      .box h3 { margin: 0 0 8px; font-size: 14px; }
      .box ul { margin: 0; padding-left: 18px; }
      pre.readme { white-space: pre-wrap; background: var(--bg); padding: 12px; border-radius: 6px; }
      code { font-size: 12px; }
      footer { position: fixed; bottom: 0; left: 0; right: 0; padding: 6px 20px; background: var(--bg);
        border-top: 1px solid var(--line); font-size: 12px; color: var(--muted); }
      footer.error { color: #cf222e; }
    </style>
    </head>

    """#

  private static let body = #"""
    <body>
    <header>
      <h1>GitHub browser</h1>
      <span id="connection" class="badge reconnecting">connecting…</span>
      <nav>
        <button id="nav-mine" type="button">My repositories</button>
        <button id="nav-bookmarks" type="button">Bookmarks</button>
        <form id="owner-form"><input id="owner" placeholder="owner, e.g. octo-org" size="18">
          <button type="submit">Show</button></form>
      </nav>
      <span id="identity" class="meta"></span>
      <span id="rate" class="meta"></span>
      <span id="pending" class="meta"></span>
    </header>
    <main id="main"><p class="status">Loading…</p></main>
    <footer id="outcome">Actions you take here are applied by the leader and appear in every front end.</footer>

    """#
}
