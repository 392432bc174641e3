/// Escaping for ``MarkdownHTML``: the five characters HTML gives a meaning, in text and in
/// attribute values alike.
enum MarkdownEscape {
  static func html<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    var output: [UInt8] = []
    for byte in bytes { append(byte, to: &output) }
    return output
  }

  static func append(_ byte: UInt8, to output: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "&"): output += "&amp;".utf8
    case UInt8(ascii: "<"): output += "&lt;".utf8
    case UInt8(ascii: ">"): output += "&gt;".utf8
    case UInt8(ascii: "\""): output += "&quot;".utf8
    case UInt8(ascii: "'"): output += "&#39;".utf8
    case 0: output += "\u{FFFD}".utf8
    default: output.append(byte)
    }
  }
}

/// The span level of ``MarkdownHTML`` over one block's text: code spans, strong and emphasis,
/// links and images (as their text); everything else escaped.
///
/// A delimiter without a closer is text. Once the search for a delimiter's closer has failed,
/// later ones of the same kind in the same range are not searched again, and link texts are
/// looked for within ``maximumLinkText`` bytes, so the work stays linear.
struct InlineRenderer {
  let text: [UInt8]
  var output: [UInt8] = []
  /// Emphasis nests at most this deep; deeper delimiters are shown as text.
  static let maximumDepth = 6
  /// The longest link text looked for, in bytes.
  static let maximumLinkText = 1000
  /// The longest link address looked for, in bytes.
  static let maximumAddress = 2000

  init(text: [UInt8]) {
    self.text = text
  }

  mutating func render(_ range: Range<Int>, depth: Int) {
    var unmatched: Set<[UInt8]> = []
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = text[index]
      switch byte {
      case UInt8(ascii: "\\")
      where index + 1 < range.upperBound && text[index + 1].isASCIIPunctuation:
        MarkdownEscape.append(text[index + 1], to: &output)
        index += 2
        continue
      case UInt8(ascii: "`"):
        let run = runLength(at: index, of: byte, in: range)
        let delimiter = [UInt8](repeating: byte, count: run)
        if !unmatched.contains(delimiter),
          let close = find(delimiter, from: index + run, in: range, exactRun: true)
        {
          output += "<code>".utf8
          output += MarkdownEscape.html(text[(index + run)..<close])
          output += "</code>".utf8
          index = close + run
        } else {
          unmatched.insert(delimiter)
          output += delimiter
          index += run
        }
        continue
      case UInt8(ascii: "*"), UInt8(ascii: "_"):
        let run = min(2, runLength(at: index, of: byte, in: range))
        let delimiter = [UInt8](repeating: byte, count: run)
        let opensWord =
          byte == UInt8(ascii: "*")
          || (index == range.lowerBound || !text[index - 1].isASCIIAlphanumeric)
        if depth < Self.maximumDepth, opensWord, !unmatched.contains(delimiter),
          index + run < range.upperBound, text[index + run] != UInt8(ascii: " ")
        {
          if let close = find(delimiter, from: index + run + 1, in: range, exactRun: false) {
            let tag = run == 2 ? "strong" : "em"
            output += "<\(tag)>".utf8
            render((index + run)..<close, depth: depth + 1)
            output += "</\(tag)>".utf8
            index = close + run
            continue
          }
          unmatched.insert(delimiter)
        }
        output += delimiter
        index += run
        continue
      case UInt8(ascii: "!")
      where index + 1 < range.upperBound && text[index + 1] == UInt8(ascii: "["):
        if let link = link(at: index + 1, in: range) {
          // An image shows its alternative text only: the page loads nothing from elsewhere.
          output += MarkdownEscape.html(text[link.label])
          index = link.end
          continue
        }
      case UInt8(ascii: "["):
        if let link = link(at: index, in: range) {
          if let address = Self.safeAddress(text[link.address]) {
            output += "<a href=\"".utf8
            output += MarkdownEscape.html(address)
            output += "\" rel=\"nofollow noopener noreferrer\">".utf8
            render(link.label, depth: depth + 1)
            output += "</a>".utf8
          } else {
            render(link.label, depth: depth + 1)
          }
          index = link.end
          continue
        }
      case UInt8(ascii: "<"):
        if let close = text[index..<min(range.upperBound, index + Self.maximumAddress)]
          .firstIndex(of: UInt8(ascii: ">")),
          let address = Self.safeAddress(text[(index + 1)..<close])
        {
          output += "<a href=\"".utf8
          output += MarkdownEscape.html(address)
          output += "\" rel=\"nofollow noopener noreferrer\">".utf8
          output += MarkdownEscape.html(address)
          output += "</a>".utf8
          index = close + 1
          continue
        }
      default:
        break
      }
      MarkdownEscape.append(byte, to: &output)
      index += 1
    }
  }

  /// `[label](address)` starting at `start`: the label's and the address's ranges and the
  /// index after the closing parenthesis.
  private func link(
    at start: Int, in range: Range<Int>
  ) -> (label: Range<Int>, address: Range<Int>, end: Int)? {
    let labelEnd = min(range.upperBound, start + 1 + Self.maximumLinkText)
    guard let close = text[(start + 1)..<labelEnd].firstIndex(of: UInt8(ascii: "]")),
      close + 1 < range.upperBound, text[close + 1] == UInt8(ascii: "(")
    else { return nil }
    let addressEnd = min(range.upperBound, close + 2 + Self.maximumAddress)
    guard let end = text[(close + 2)..<addressEnd].firstIndex(of: UInt8(ascii: ")")) else {
      return nil
    }
    // A title after the address ("url \"title\"") is dropped.
    let address = text[(close + 2)..<end].firstIndex(of: UInt8(ascii: " ")) ?? end
    return ((start + 1)..<close, (close + 2)..<address, end + 1)
  }

  /// The address if it is absolute `http`, `https` or `mailto`, without spaces, quotes or
  /// control characters; `nil` for any other (such as `javascript:` or a relative path).
  static func safeAddress(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
    guard !bytes.isEmpty,
      bytes.allSatisfy({
        $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<")
          && $0 != UInt8(ascii: ">")
      })
    else { return nil }
    let lowered = String(decoding: bytes.prefix(8), as: UTF8.self).lowercased()
    guard
      lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
        || lowered.hasPrefix("mailto:")
    else { return nil }
    return Array(bytes)
  }

  private func runLength(at index: Int, of byte: UInt8, in range: Range<Int>) -> Int {
    text[index..<range.upperBound].prefix { $0 == byte }.count
  }

  /// The index of the next `delimiter` at or after `start` in `range`; with `exactRun`, only a
  /// run of exactly its length counts.
  private func find(
    _ delimiter: [UInt8], from start: Int, in range: Range<Int>, exactRun: Bool
  ) -> Int? {
    var index = start
    while index + delimiter.count <= range.upperBound {
      if text[index] == delimiter[0] {
        let run = runLength(at: index, of: delimiter[0], in: range)
        if exactRun ? run == delimiter.count : run >= delimiter.count { return index }
        index += run
      } else {
        index += 1
      }
    }
    return nil
  }
}

extension UInt8 {
  fileprivate var isASCIIAlphanumeric: Bool {
    (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
  }

  fileprivate var isASCIIPunctuation: Bool {
    (0x21...0x2F).contains(self) || (0x3A...0x40).contains(self) || (0x5B...0x60).contains(self)
      || (0x7B...0x7E).contains(self)
  }
}
