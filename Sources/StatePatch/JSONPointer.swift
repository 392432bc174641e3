/// An RFC 6901 JSON Pointer: a path of reference tokens from the root of a document.
///
/// A pointer's text is empty for the whole document, or a `/` before each token, where `~` in a
/// token is written `~0` and `/` is written `~1`:
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/a~1b/0")
/// pointer.tokens       // ["a/b", "0"]
/// pointer.description  // "/a~1b/0"
/// ```
///
/// Against an array, a token is an index: `0`, or a digit string without a leading zero, or `-`
/// (the position past the last element, used by JSON Patch's `add`). Tokens compare by their
/// UTF-8 bytes, as object keys do.
public struct JSONPointer: Sendable, Hashable {
  /// The unescaped reference tokens; empty for the whole document.
  public var tokens: [String]

  /// A pointer made of `tokens` (unescaped).
  public init(tokens: [String]) {
    self.tokens = tokens
  }

  /// The pointer to the whole document.
  public static let root = JSONPointer(tokens: [])

  /// Whether this pointer refers to the whole document.
  public var isRoot: Bool { tokens.isEmpty }

  /// The pointer to the parent of this one; nil for the root.
  public var parent: JSONPointer? {
    isRoot ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// This pointer followed by `token`.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// This pointer followed by the array index `index`.
  public func appending(index: Int) -> JSONPointer {
    precondition(index >= 0, "JSONPointer.appending(index:) needs a non-negative index")
    return appending(String(index))
  }

  /// Whether `self` is `other` or one of its ancestors (a proper or improper prefix).
  public func isPrefix(of other: JSONPointer) -> Bool {
    guard tokens.count <= other.tokens.count else { return false }
    return zip(tokens, other.tokens).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
  }

  public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
    lhs.tokens.count == rhs.tokens.count && lhs.isPrefix(of: rhs)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(tokens.count)
    for token in tokens { hasher.combine(token) }
  }
}

extension JSONPointer {
  /// Parses the RFC 6901 text of a pointer (the JSON string form, not the URI fragment form).
  ///
  /// - Throws: ``JSONPointerError`` when the text is neither empty nor starts with `/`, or a `~`
  ///   is not followed by `0` or `1`.
  public init(parsing text: String) throws(JSONPointerError) {
    var tokens: [String] = []
    let utf8 = Array(text.utf8)
    if utf8.isEmpty {
      self.init(tokens: [])
      return
    }
    guard utf8[0] == UInt8(ascii: "/") else {
      throw JSONPointerError(text: text, offset: 0, reason: .missingSlash)
    }
    tokens.reserveCapacity(utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
    var token: [UInt8] = []
    var index = 1
    while index <= utf8.count {
      let byte: UInt8 = index < utf8.count ? utf8[index] : UInt8(ascii: "/")
      if byte == UInt8(ascii: "/") {
        tokens.append(String(decoding: token, as: UTF8.self))
        token.removeAll(keepingCapacity: true)
      } else if byte == UInt8(ascii: "~") {
        guard index + 1 < utf8.count else {
          throw JSONPointerError(text: text, offset: index, reason: .badEscape)
        }
        switch utf8[index + 1] {
        case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
        default: throw JSONPointerError(text: text, offset: index, reason: .badEscape)
        }
        index += 1
      } else {
        token.append(byte)
      }
      index += 1
    }
    self.init(tokens: tokens)
  }

  /// The token escaped for a pointer's text: `~` as `~0`, `/` as `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
      return token
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(token.utf8.count + 2)
    for byte in token.utf8 {
      switch byte {
      case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
      case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The array index a token names: its value for `0` or a digit string without a leading zero,
  /// `.end` for `-`, nil for anything else (including numbers too large for `Int`).
  static func arrayIndex(_ token: String) -> ArrayIndex? {
    var utf8 = token.utf8.makeIterator()
    guard let first = utf8.next() else { return nil }
    if first == UInt8(ascii: "-") { return utf8.next() == nil ? .end : nil }
    guard first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
    var value = Int(first - UInt8(ascii: "0"))
    if value == 0 { return utf8.next() == nil ? .index(0) : nil }
    while let byte = utf8.next() {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { return nil }
      value = sum
    }
    return .index(value)
  }

  /// What a reference token means against an array.
  enum ArrayIndex: Equatable {
    case index(Int)
    /// `-`: the (nonexistent) element after the last one.
    case end
  }
}

extension JSONPointer: CustomStringConvertible {
  /// The pointer's RFC 6901 text, with `~0` and `~1` escapes.
  public var description: String {
    var text = ""
    for token in tokens {
      text += "/"
      text += Self.escape(token)
    }
    return text
  }
}

extension JSONPointer: ExpressibleByStringLiteral {
  /// A pointer written as a literal; an invalid literal is a programmer error and traps.
  public init(stringLiteral value: String) {
    do {
      try self.init(parsing: value)
    } catch {
      preconditionFailure("invalid JSON Pointer literal \"\(value)\": \(error)")
    }
  }
}

/// A JSON Pointer's text that RFC 6901 does not allow.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Reason: Sendable, Hashable {
    /// A non-empty pointer must start with `/`.
    case missingSlash
    /// A `~` not followed by `0` or `1`.
    case badEscape
  }

  /// The text that failed to parse.
  public var text: String
  /// The byte offset in `text` where the problem is.
  public var offset: Int
  /// What is wrong.
  public var reason: Reason

  public var description: String {
    switch reason {
    case .missingSlash: "JSON Pointer \"\(text)\" must be empty or start with \"/\""
    case .badEscape:
      "JSON Pointer \"\(text)\": \"~\" at byte \(offset) must be followed by 0 or 1"
    }
  }
}
