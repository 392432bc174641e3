extension JSONValue {
  /// RFC 6902's equality for `test`: like `==`, except that numbers of different kinds are
  /// equal when their values are (`1` equals `1.0`), as section 4.6 asks.
  func isEquivalent(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.int, .double), (.uint, .double), (.double, .int), (.double, .uint), (.int, .uint),
      (.uint, .int):
      return Self.numbersEqual(self, other)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && zip(a.members, b.members).allSatisfy {
          UTF8Bytes.equal($0.key, $1.key) && $0.value.isEquivalent(to: $1.value)
        }
    default:
      return self == other
    }
  }

  /// Whether two numbers of any kinds have exactly the same value.
  private static func numbersEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
      return Int64(exactly: y) == x
    case (.uint(let x), .double(let y)), (.double(let y), .uint(let x)):
      return UInt64(exactly: y) == x
    case (.int(let x), .uint(let y)), (.uint(let y), .int(let x)):
      return Int64(exactly: y) == x
    default:
      return a == b
    }
  }
}
