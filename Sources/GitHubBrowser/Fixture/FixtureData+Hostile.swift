extension FixtureData {
  /// A README that tries to run code in the page that shows it: a `<script>` element, an
  /// `<img>` whose `onerror` runs, and a `javascript:` link, each of which would set
  /// `window.readmeScriptRan` if it ran; with some markdown that should render around them.
  static let hostileReadme = """
    # Hostile README

    This README tries to run code in your browser. The page must show it as **text**.

    <script>window.readmeScriptRan = "script"</script>

    <img src="x" onerror="window.readmeScriptRan = 'onerror'">

    [A javascript: link](javascript:window.readmeScriptRan='link') and a \
    [safe link](https://example.com/docs).

    - *Emphasis*, `code` and lists
    - still render

    ```
    <script>window.readmeScriptRan = "code block"</script>
    ```

    """

  /// `owner` with ``hostileReadme`` as every repository's README.
  static func withHostileReadme(_ owner: Owner) -> Owner {
    var owner = owner
    for index in owner.repositories.indices {
      owner.repositories[index].readme = hostileReadme
    }
    return owner
  }
}
