/// Why bytes are not a JSON document (RFC 8259, strictly), with the byte offset of the problem.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Reason: Sendable, Hashable {
    /// The input ends inside a value (or is empty).
    case unexpectedEnd
    /// A byte that cannot start or continue a value here.
    case unexpectedByte(UInt8)
    /// A `,` directly before `]` or `}`.
    case trailingComma
    /// Something other than whitespace after the document.
    case trailingData
    /// A number with a leading zero, such as `01` or `-00.5`.
    case leadingZero
    /// A number that breaks the grammar: `-`, `1.`, `1e`, `.5`.
    case invalidNumber
    /// An integer outside `Int64.min...UInt64.max`, or a number whose value overflows `Double`.
    case numberOutOfRange
    /// A backslash escape other than `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate without its other half.
    case loneSurrogate
    /// An unescaped byte below 0x20 inside a string.
    case controlCharacter
    /// Bytes that are not well-formed UTF-8 (overlong forms, surrogates, above U+10FFFF).
    case invalidUTF8
    /// An object with the same key twice (compared by UTF-8 bytes).
    case duplicateKey(String)
    /// Arrays and objects nested deeper than the parser's limit.
    case tooDeep(limit: Int)
  }

  /// The byte offset in the input where the problem was found.
  public var offset: Int
  /// What is wrong.
  public var reason: Reason

  /// An error at byte `offset`.
  public init(offset: Int, reason: Reason) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String {
    let what: String
    switch reason {
    case .unexpectedEnd: what = "unexpected end of input"
    case .unexpectedByte(let byte):
      let shown =
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + hex(byte)
      what = "unexpected byte \(shown)"
    case .trailingComma: what = "trailing comma"
    case .trailingData: what = "data after the document"
    case .leadingZero: what = "number with a leading zero"
    case .invalidNumber: what = "malformed number"
    case .numberOutOfRange: what = "number out of range"
    case .invalidEscape: what = "invalid escape sequence"
    case .loneSurrogate: what = "lone UTF-16 surrogate in a \\u escape"
    case .controlCharacter: what = "unescaped control character in a string"
    case .invalidUTF8: what = "invalid UTF-8"
    case .duplicateKey(let key): what = "duplicate key \"\(key)\""
    case .tooDeep(let limit): what = "nesting deeper than \(limit)"
    }
    return "invalid JSON at byte \(offset): \(what)"
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }
}
