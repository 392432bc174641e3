import Foundation
import Testing

@testable import GitHubBrowser

/// The README renderer: formatted text, and nothing from the markdown that can run.
@Suite struct MarkdownHTMLTests {
  /// The tags in `html`, opening and closing, in lower case.
  static func tags(_ html: String) -> [String] {
    let pattern = try! NSRegularExpression(pattern: "</?([A-Za-z][A-Za-z0-9]*)")
    let range = NSRange(html.startIndex..., in: html)
    return pattern.matches(in: html, range: range).map {
      String(html[Range($0.range(at: 1), in: html)!]).lowercased()
    }
  }

  @Test func rendersTheCommonBlocksAndSpans() {
    let html = MarkdownHTML.render(
      """
      # Atlas

      Use **atlas** with *care* and `--help`.
      See [the docs](https://example.com/docs).

      - one
      - two

      1. first
      2. second

      > quoted

      ```
      atlas --help
      ```

      ---
      """)
    #expect(html.contains("<h1>Atlas</h1>"))
    #expect(html.contains("<strong>atlas</strong>"))
    #expect(html.contains("<em>care</em>"))
    #expect(html.contains("<code>--help</code>"))
    #expect(
      html.contains(
        #"<a href="https://example.com/docs" rel="nofollow noopener noreferrer">the docs</a>"#))
    #expect(html.contains("<ul>\n<li>one</li>\n<li>two</li>\n</ul>"))
    #expect(html.contains("<ol>\n<li>first</li>\n<li>second</li>\n</ol>"))
    #expect(html.contains("<blockquote>\n<p>quoted</p>\n</blockquote>"))
    #expect(html.contains("<pre><code>atlas --help\n</code></pre>"))
    #expect(html.contains("<hr>"))
  }

  @Test func rawHTMLIsShownAsEscapedText() {
    let html = MarkdownHTML.render(
      """
      <script>window.ran = true</script>

      <img src="x" onerror="window.ran = true">

      Inline <b onclick="x()">bold</b> and <iframe src="https://evil.example"></iframe>
      """)
    #expect(html.contains("&lt;script&gt;window.ran = true&lt;/script&gt;"))
    #expect(html.contains("&lt;img src=&quot;x&quot; onerror=&quot;window.ran = true&quot;&gt;"))
    #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<iframe"))
    #expect(!html.contains("<b "))
    #expect(Set(Self.tags(html)).isSubset(of: MarkdownHTML.allowedTags))
  }

  @Test func theFixturesHostileReadmeRendersOnlyAllowedTagsWithoutHandlers() {
    let html = MarkdownHTML.render(FixtureData.hostileReadme)
    #expect(Set(Self.tags(html)).isSubset(of: MarkdownHTML.allowedTags))
    #expect(html.contains("&lt;script&gt;"))
    #expect(html.contains("onerror=&quot;"))
    #expect(!html.contains("href=\"javascript"))
    // The only attributes are the links' href and rel.
    let attributes = try! NSRegularExpression(pattern: "<[a-z0-9]+ ([a-z-]+)=")
    let names = attributes.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
      String(html[Range($0.range(at: 1), in: html)!])
    }
    #expect(Set(names).isSubset(of: ["href"]))
  }

  @Test func onlyWebAndMailAddressesBecomeLinks() {
    for address in [
      "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<script>", "vbscript:x",
      "/relative/path", "\"onmouseover=alert(1)",
    ] {
      let html = MarkdownHTML.render("[click](\(address))")
      #expect(!html.contains("<a "), "\(address): \(html)")
      #expect(html.contains("click"))
    }
    let mail = MarkdownHTML.render(
      "[write](mailto:ada@example.com) <https://example.com/a?b=1&c=2>")
    #expect(mail.contains(#"<a href="mailto:ada@example.com""#))
    #expect(mail.contains(#"<a href="https://example.com/a?b=1&amp;c=2""#))
  }

  @Test func imagesShowTheirAlternativeTextOnly() {
    let html = MarkdownHTML.render("![build status](https://ci.example/badge.svg)")
    #expect(html == "<p>build status</p>\n")
  }

  @Test func unclosedDelimitersAreText() {
    #expect(MarkdownHTML.render("a * b ** c ` d [e") == "<p>a * b ** c ` d [e</p>\n")
    #expect(MarkdownHTML.render("snake_case_name") == "<p>snake_case_name</p>\n")
  }

  /// A README of the state's bound made of unclosed delimiters renders to allowed tags only;
  /// the time limit guards against a renderer that would search without bound (how fast it is,
  /// is not this test's business).
  @Test(.timeLimit(.minutes(1)))
  func aHostileREADMEOfTheStatesBoundRendersToAllowedTagsOnly() {
    let size = 64 << 10
    for unit in ["*", "[", "`", "**a", "[a](", "> ", "_"] {
      let text = String(repeating: unit, count: size / unit.utf8.count)
      let html = MarkdownHTML.render(text)
      #expect(Set(Self.tags(html)).isSubset(of: MarkdownHTML.allowedTags), "\(unit)")
    }
  }
}
