/// A fixed total order on JSON values, used to sort the elements of sets and the pairs of
/// dictionaries whose keys are not strings: null, then booleans (false first), numbers by value,
/// strings by their UTF-8 bytes, arrays and then objects element by element.
enum CanonicalOrder {
  /// Whether `a` comes before `b`.
  static func precedes(_ a: JSONValue, _ b: JSONValue) -> Bool {
    compare(a, b) < 0
  }

  /// -1, 0 or 1 as `a` comes before, equals or comes after `b`.
  static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
    let (rankA, rankB) = (rank(a), rank(b))
    if rankA != rankB { return rankA < rankB ? -1 : 1 }
    switch (a, b) {
    case (.bool(let x), .bool(let y)):
      return x == y ? 0 : (x ? 1 : -1)
    case (.string(let x), .string(let y)):
      if x == y { return 0 }
      return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
    case (.array(let x), .array(let y)):
      for (left, right) in zip(x, y) {
        let order = compare(left, right)
        if order != 0 { return order }
      }
      return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    case (.object(let x), .object(let y)):
      for (left, right) in zip(x.members, y.members) {
        if left.key != right.key { return JSONObject.precedes(left.key, right.key) ? -1 : 1 }
        let order = compare(left.value, right.value)
        if order != 0 { return order }
      }
      return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    default:
      return compareNumbers(a, b)
    }
  }

  private static func rank(_ value: JSONValue) -> Int {
    switch value {
    case .null: 0
    case .bool: 1
    case .int, .uint, .double: 2
    case .string: 3
    case .array: 4
    case .object: 5
    }
  }

  /// Numbers by value; an integer and a double of the same value order the integer first.
  private static func compareNumbers(_ a: JSONValue, _ b: JSONValue) -> Int {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.uint(let x), .uint(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.int, .uint): return -1
    case (.uint, .int): return 1
    default:
      let (x, y) = (approximate(a), approximate(b))
      if x != y { return x < y ? -1 : 1 }
      if case .double = a, case .double = b { return 0 }
      if case .double = a { return 1 }
      return -1
    }
  }

  private static func approximate(_ value: JSONValue) -> Double {
    switch value {
    case .int(let x): Double(x)
    case .uint(let x): Double(x)
    case .double(let x): x
    default: 0
    }
  }
}
