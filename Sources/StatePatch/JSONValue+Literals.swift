extension JSONValue: ExpressibleByBooleanLiteral {
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// An integer literal is an exact ``JSONValue/int(_:)``.
  public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// A floating-point literal is a ``JSONValue/double(_:)``, even `5.0`.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// A string literal is a ``JSONValue/string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// An array literal is a ``JSONValue/array(_:)``.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// A dictionary literal is an ``JSONValue/object(_:)``; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
  }
}

extension JSONValue {
  /// An integer of any width: `int` when it fits in `Int64`, `uint` above `Int64.max`.
  public init(_ integer: some BinaryInteger) {
    if let exact = Int64(exactly: integer) {
      self = .int(exact)
    } else if let exact = UInt64(exactly: integer) {
      self = .uint(exact)
    } else {
      preconditionFailure("JSONValue(\(integer)): integers beyond 64 bits are not exact in JSON")
    }
  }
}
