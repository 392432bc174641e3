extension WebPage {
  /// The page's style sheet, served at ``stylePath``. It lays the page out from 360 px wide
  /// without horizontal scrolling: the header wraps, the search box shrinks, the detail's
  /// columns stack, and long names and code wrap or scroll inside their own box.
  static let style = #"""
    :root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --bg: #f6f8fa;
      --danger: #cf222e; --warn-bg: #fff8c5; --warn-line: #d4a72c; }
    * { box-sizing: border-box; }
    html, body { max-width: 100%; }
    body { margin: 0; font: 14px/1.5 system-ui, sans-serif; color: var(--fg); }
    header { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; padding: 10px 16px;
      background: #24292f; color: #fff; }
    header h1 { font-size: 16px; margin: 0 8px 0 0; }
    header h1 a.home { color: #fff; text-decoration: none; }
    header button, header input { font: inherit; }
    header button { border: 1px solid #57606a; border-radius: 6px; background: #32383f; color: #fff;
      padding: 2px 10px; cursor: pointer; }
    [hidden] { display: none !important; }
    #sign-out { display: inline; }
    nav { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; min-width: 0; max-width: 100%; }
    #owner-form { display: flex; gap: 6px; min-width: 0; flex: 1 1 200px; }
    #owner { min-width: 0; width: 100%; flex: 1 1 auto; border-radius: 6px; border: 1px solid #57606a;
      padding: 2px 8px; }
    .badge { padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 12px; }
    .badge.live { background: #1a7f37; }
    .badge.reconnecting { background: #bf8700; }
    .badge.disconnected { background: var(--danger); }
    .meta { color: #d1d9e0; font-size: 12px; }
    .offline { background: var(--warn-bg); border-bottom: 1px solid var(--warn-line); padding: 8px 16px;
      font-weight: 600; }
    main { max-width: 980px; margin: 0 auto; padding: 16px 16px 72px; overflow-wrap: anywhere; }
    h2 { margin: 8px 0 12px; font-size: 20px; }
    table { width: 100%; border-collapse: collapse; table-layout: auto; }
    td { padding: 8px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
    td.num { text-align: right; white-space: nowrap; color: var(--muted); }
    a, .link { color: var(--accent); cursor: pointer; text-decoration: none; background: none;
      border: 0; padding: 0; font: inherit; text-align: left; }
    button.star { border: 1px solid var(--line); background: var(--bg); border-radius: 6px;
      padding: 2px 8px; cursor: pointer; white-space: nowrap; font: inherit; font-size: 12px;
      font-weight: 400; vertical-align: middle; }
    button.star.on { background: var(--warn-bg); border-color: var(--warn-line); }
    button.action { border: 1px solid var(--line); background: var(--bg); border-radius: 6px;
      padding: 4px 12px; cursor: pointer; font: inherit; color: var(--fg); }
    button.action:hover, button.star:hover { border-color: var(--accent); }
    .status { color: var(--muted); margin: 6px 0; }
    .problem { border: 1px solid #ffcecb; background: #ffebe9; border-radius: 6px; padding: 8px 12px;
      margin: 8px 0; }
    .problem p { margin: 0 0 4px; }
    .waiting { border: 1px solid var(--warn-line); background: var(--warn-bg); border-radius: 6px;
      padding: 8px 12px; margin: 8px 0; }
    details summary { cursor: pointer; color: var(--muted); }
    details pre { white-space: pre-wrap; max-height: 12em; overflow: auto; font-size: 12px;
      margin: 4px 0 0; }
    .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
    .box { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 10px 0;
      min-width: 0; }
    .box h3 { margin: 0 0 8px; font-size: 14px; }
    .box ul { margin: 0; padding-left: 18px; }
    .empty { color: var(--muted); border: 1px dashed var(--line); border-radius: 6px; padding: 16px;
      text-align: center; }
    .markdown { overflow-wrap: anywhere; }
    .markdown h1, .markdown h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
    .markdown h3, .markdown h4, .markdown h5, .markdown h6 { font-size: 15px; }
    .markdown pre { background: var(--bg); padding: 10px 12px; border-radius: 6px; overflow-x: auto;
      max-width: 100%; }
    .markdown code { background: var(--bg); padding: 0 3px; border-radius: 4px; }
    .markdown pre code { background: none; padding: 0; }
    .markdown blockquote { margin: 8px 0; padding: 0 12px; border-left: 4px solid var(--line);
      color: var(--muted); }
    code { font-size: 12px; }
    footer { position: fixed; bottom: 0; left: 0; right: 0; padding: 6px 16px; background: var(--bg);
      border-top: 1px solid var(--line); font-size: 12px; color: var(--muted); display: flex;
      flex-wrap: wrap; gap: 4px 16px; justify-content: space-between; align-items: flex-start; }
    footer .error { color: var(--danger); }
    footer details[open] { max-height: 40vh; overflow: auto; }
    footer dl { margin: 4px 0 0; display: grid; grid-template-columns: auto auto; gap: 0 8px; }
    footer dd { margin: 0; }
    @media (max-width: 640px) {
      header { padding: 8px 12px; }
      main { padding: 12px 12px 72px; }
      .columns { grid-template-columns: minmax(0, 1fr); gap: 0; }
      td.lang { display: none; }
      td { padding: 6px 4px; }
    }
    """#
}
