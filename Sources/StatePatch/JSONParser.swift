/// A strict RFC 8259 JSON parser that builds a ``JSONValue``.
///
/// ```swift
/// let document = try JSONValue(parsing: #"{"b": [1, 2.5], "a": "\u00e9"}"#)
/// // .object(["a": "é", "b": [.int(1), .double(2.5)]])
/// ```
///
/// What it accepts, exactly:
/// - one value, with only space, tab, line feed and carriage return around it; no byte order
///   mark, no comments, no trailing commas;
/// - strings of well-formed UTF-8 (no overlong forms, no encoded surrogates, nothing above
///   U+10FFFF), no unescaped bytes below 0x20, the escapes RFC 8259 lists, and `\u` surrogate
///   escapes only as a high-low pair;
/// - objects with unique keys (compared by UTF-8 bytes), whose members are then kept in
///   canonical order;
/// - numbers by the RFC grammar (no leading zeros, no `+`, no bare `.`). A number without a
///   fraction or exponent is an integer and must lie in `Int64.min...UInt64.max`: it becomes
///   ``JSONValue/int(_:)`` (or ``JSONValue/uint(_:)`` above `Int64.max`), and an integer outside
///   that range is an error rather than a silently rounded double (write `1e30` for a double).
///   `-0` is the integer 0. A number with a fraction or exponent is always a
///   ``JSONValue/double(_:)``, so `5` and `5.0` stay different values; it is rounded to the
///   nearest double, a magnitude too small for a double becomes 0, and one too large for a
///   double is an error;
/// - arrays and objects nested at most ``maximumDepth`` deep.
///
/// The parser works on UTF-8 bytes with an explicit stack, never recursion, so no input can
/// exhaust the call stack. Errors carry the byte offset of the problem.
public struct JSONParser: Sendable {
  /// The default nesting limit, 512 arrays or objects deep.
  public static let defaultMaximumDepth = 512

  /// How deep arrays and objects may nest: `[]` is depth 1, `[[]]` depth 2.
  public var maximumDepth: Int

  /// A parser that accepts nesting up to `maximumDepth`.
  public init(maximumDepth: Int = JSONParser.defaultMaximumDepth) {
    precondition(maximumDepth >= 0, "JSONParser needs a non-negative maximum depth")
    self.maximumDepth = maximumDepth
  }

  /// Parses one JSON document from `bytes` (UTF-8).
  public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
    let result = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParseError) in try parse(buffer) }
    }
    if let result { return try result.get() }
    let copy = Array(bytes)
    return try copy.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) in try parse(buffer) }
    }.get()
  }

  /// Parses one JSON document from the UTF-8 of `text`.
  public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    var text = text
    return try text.withUTF8 { buffer in
      Result { () throws(JSONParseError) in try parse(buffer) }
    }.get()
  }

  private func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
    var core = ParserCore(input: buffer, maximumDepth: maximumDepth)
    return try core.parseDocument()
  }
}

extension JSONValue {
  /// Parses a JSON document from UTF-8 `bytes` with ``JSONParser``.
  public init(
    parsing bytes: some Collection<UInt8>, maximumDepth: Int = JSONParser.defaultMaximumDepth
  )
    throws(JSONParseError)
  {
    self = try JSONParser(maximumDepth: maximumDepth).parse(bytes)
  }

  /// Parses a JSON document from `text` with ``JSONParser``.
  public init(
    parsing text: String, maximumDepth: Int = JSONParser.defaultMaximumDepth
  )
    throws(JSONParseError)
  {
    self = try JSONParser(maximumDepth: maximumDepth).parse(text)
  }
}
