import Synchronization

/// A small, safe renderer of a README's markdown to HTML, for the repository screen.
///
/// It knows the common blocks (ATX headings, paragraphs, fenced and indented code, bulleted
/// and numbered lists, block quotes, rules) and spans (code, strong, emphasis, links, and
/// images shown as their alternative text). It is not CommonMark: what it does not know is
/// shown as text.
///
/// **Safety** comes first: every character of the input is escaped, and the output holds only
/// the tags of ``allowedTags``, without attributes except `href` on `a`, and only for an
/// `http`, `https` or `mailto` address. Raw HTML in the markdown, such as `<script>` or
/// `<img onerror=...>`, is shown as the text it is; nothing from a README can run.
///
/// ```swift
/// MarkdownHTML.render("# Atlas\n\nUse **atlas** <script>alert(1)</script>")
/// // <h1>Atlas</h1>\n<p>Use <strong>atlas</strong> &lt;script&gt;alert(1)&lt;/script&gt;</p>\n
/// ```
///
/// Work is linear in the text's length (searches for a closing delimiter are bounded), so a
/// hostile README of ``BrowserState/maximumReadmeBytes`` renders quickly.
public enum MarkdownHTML {
  /// Every tag the renderer emits.
  public static let allowedTags: Set<String> = [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "code", "ul", "ol", "li", "blockquote",
    "hr", "strong", "em", "a",
  ]

  /// The HTML of `markdown`.
  public static func render(_ markdown: String) -> String {
    var renderer = BlockRenderer()
    renderer.render(lines: lines(of: markdown), depth: 0)
    return String(decoding: renderer.output, as: UTF8.self)
  }

  /// ``render(_:)``, remembering the last few results: a front end renders the same README
  /// for every view it sends while the repository is open.
  public static func cachedRender(_ markdown: String) -> String {
    if let hit = cache.withLock({ $0.first { $0.markdown == markdown }?.html }) { return hit }
    let html = render(markdown)
    cache.withLock { entries in
      entries.insert((markdown, html), at: 0)
      if entries.count > 8 { entries.removeLast() }
    }
    return html
  }

  private static let cache = Mutex<[(markdown: String, html: String)]>([])

  /// The lines of `text` as bytes, without their line ends (LF, CR LF or CR), tabs expanded
  /// to four spaces.
  static func lines(of text: String) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var previous: UInt8 = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\n") where previous == UInt8(ascii: "\r"): break
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        lines.append(current)
        current = []
      case UInt8(ascii: "\t"): current += Array(repeating: UInt8(ascii: " "), count: 4)
      default: current.append(byte)
      }
      previous = byte
    }
    lines.append(current)
    return lines
  }
}

/// The block level of ``MarkdownHTML``: walks the lines once, opening and closing blocks.
private struct BlockRenderer {
  var output: [UInt8] = []
  /// Block quotes nest at most this deep; deeper markers are shown as text.
  static let maximumDepth = 4

  fileprivate enum ListKind { case bulleted, numbered }

  /// The paragraph and the list being gathered, closed by the next block or a blank line.
  private struct OpenBlocks {
    var paragraph: [[UInt8]] = []
    var list: ListKind?
    var item: [[UInt8]] = []

    mutating func flushItem(into output: inout [UInt8]) {
      Self.flush(&item, as: "li", into: &output)
    }

    /// Emits `lines` joined as one element `tag`, if there are any, and empties them.
    private static func flush(_ lines: inout [[UInt8]], as tag: String, into output: inout [UInt8])
    {
      guard !lines.isEmpty else { return }
      output += "<\(tag)>".utf8
      output += BlockRenderer.inline(Array(lines.joined(separator: [UInt8(ascii: " ")])))
      output += "</\(tag)>\n".utf8
      lines = []
    }

    mutating func close(into output: inout [UInt8]) {
      Self.flush(&paragraph, as: "p", into: &output)
      flushItem(into: &output)
      if let open = list { output += (open == .bulleted ? "</ul>\n" : "</ol>\n").utf8 }
      list = nil
    }
  }

  mutating func render(lines: [[UInt8]], depth: Int) {
    var open = OpenBlocks()
    var index = 0

    while index < lines.count {
      let line = lines[index]
      let text = trimmedLeading(line)
      let indent = line.count - text.count
      index += 1

      if text.isEmpty {
        open.close(into: &output)
        continue
      }
      if indent < 4, let fence = fence(text) {
        open.close(into: &output)
        var code: [[UInt8]] = []
        while index < lines.count {
          let candidate = trimmedLeading(lines[index])
          index += 1
          if candidate.starts(with: fence),
            trimmedLeading(Array(candidate.dropFirst(fence.count)))
              .isEmpty
          {
            break
          }
          code.append(lines[index - 1])
        }
        emitCode(code)
        continue
      }
      if indent >= 4, open.paragraph.isEmpty, open.list == nil {
        var code = [Array(line.dropFirst(4))]
        while index < lines.count,
          lines[index].starts(with: [UInt8](repeating: UInt8(ascii: " "), count: 4))
            || trimmedLeading(lines[index]).isEmpty
        {
          code.append(Array(lines[index].dropFirst(4)))
          index += 1
        }
        while code.last?.isEmpty == true { code.removeLast() }
        emitCode(code)
        continue
      }
      if indent < 4, let (level, title) = heading(text) {
        open.close(into: &output)
        emit("<h\(level)>")
        output += Self.inline(title)
        emit("</h\(level)>\n")
        continue
      }
      if indent < 4, isRule(text) {
        open.close(into: &output)
        emit("<hr>\n")
        continue
      }
      if indent < 4, text.first == UInt8(ascii: ">"), depth < Self.maximumDepth {
        open.close(into: &output)
        var quoted = [unquoted(text)]
        while index < lines.count, trimmedLeading(lines[index]).first == UInt8(ascii: ">") {
          quoted.append(unquoted(trimmedLeading(lines[index])))
          index += 1
        }
        emit("<blockquote>\n")
        render(lines: quoted, depth: depth + 1)
        emit("</blockquote>\n")
        continue
      }
      if let (kind, rest) = listItem(text), open.paragraph.isEmpty || open.list != nil {
        if open.list != kind {
          open.close(into: &output)
          emit(kind == .bulleted ? "<ul>\n" : "<ol>\n")
          open.list = kind
        }
        open.flushItem(into: &output)
        open.item = [rest]
        continue
      }
      if open.list != nil {
        open.item.append(text)
      } else {
        open.paragraph.append(text)
      }
    }
    open.close(into: &output)
  }

  mutating func emit(_ text: String) {
    output += text.utf8
  }

  /// The HTML of one block's text.
  static func inline(_ text: [UInt8]) -> [UInt8] {
    var inline = InlineRenderer(text: text)
    inline.render(text.startIndex..<text.endIndex, depth: 0)
    return inline.output
  }

  private mutating func emitCode(_ lines: [[UInt8]]) {
    emit("<pre><code>")
    for line in lines {
      output += MarkdownEscape.html(line)
      output.append(UInt8(ascii: "\n"))
    }
    emit("</code></pre>\n")
  }

  private func trimmedLeading(_ line: [UInt8]) -> [UInt8] {
    Array(line.drop { $0 == UInt8(ascii: " ") })
  }

  /// The opening fence (three or more backticks or tildes) a line starts with.
  private func fence(_ text: [UInt8]) -> [UInt8]? {
    guard let first = text.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") else {
      return nil
    }
    let run = text.prefix { $0 == first }
    return run.count >= 3 ? Array(run) : nil
  }

  private func heading(_ text: [UInt8]) -> (Int, [UInt8])? {
    let level = text.prefix { $0 == UInt8(ascii: "#") }.count
    guard (1...6).contains(level) else { return nil }
    let rest = text.dropFirst(level)
    guard rest.isEmpty || rest.first == UInt8(ascii: " ") else { return nil }
    var title = Array(rest.drop { $0 == UInt8(ascii: " ") })
    while title.last == UInt8(ascii: "#") || title.last == UInt8(ascii: " ") { title.removeLast() }
    return (level, title)
  }

  private func isRule(_ text: [UInt8]) -> Bool {
    let marks = text.filter { $0 != UInt8(ascii: " ") }
    guard marks.count >= 3, let first = marks.first,
      [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_")].contains(first)
    else { return false }
    return marks.allSatisfy { $0 == first }
  }

  private func unquoted(_ text: [UInt8]) -> [UInt8] {
    var rest = text.dropFirst()
    if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
    return Array(rest)
  }

  private func listItem(_ text: [UInt8]) -> (ListKind, [UInt8])? {
    if let first = text.first,
      [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")]
        .contains(first), text.count > 1, text[1] == UInt8(ascii: " ")
    {
      return (.bulleted, Array(text.dropFirst(2).drop { $0 == UInt8(ascii: " ") }))
    }
    let digits = text.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    guard (1...9).contains(digits.count), text.count > digits.count + 1 else { return nil }
    let marker = text[digits.count]
    guard marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")"),
      text[digits.count + 1] == UInt8(ascii: " ")
    else { return nil }
    return (.numbered, Array(text.dropFirst(digits.count + 2).drop { $0 == UInt8(ascii: " ") }))
  }
}
