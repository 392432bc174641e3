/// A JSON object: members kept sorted by the UTF-8 bytes of their keys (the canonical order),
/// each key once.
///
/// ```swift
/// var object = JSONObject()
/// object["b"] = .int(2)
/// object["a"] = .int(1)
/// object.members.map(\.key)  // ["a", "b"]
/// ```
public struct JSONObject: Sendable, Hashable {
  /// The members in canonical order.
  public private(set) var members: [(key: String, value: JSONValue)]

  /// An empty object.
  public init() {
    members = []
  }

  /// An object of `pairs`; a key given twice keeps its last value.
  public init(_ pairs: some Sequence<(key: String, value: JSONValue)>) {
    members = []
    for pair in pairs { self[pair.key] = pair.value }
  }

  /// An object of members already sorted by ``JSONObject/precedes(_:_:)`` with unique keys.
  public init(sortedMembers: [(key: String, value: JSONValue)]) {
    precondition(
      zip(sortedMembers, sortedMembers.dropFirst()).allSatisfy { Self.precedes($0.key, $1.key) },
      "JSONObject(sortedMembers:) needs unique keys in canonical order")
    members = sortedMembers
  }

  /// The number of members.
  public var count: Int { members.count }

  /// The value of `key`, or nil; setting nil removes the member.
  public subscript(key: String) -> JSONValue? {
    get {
      let (index, found) = position(of: key)
      return found ? members[index].value : nil
    }
    set {
      let (index, found) = position(of: key)
      switch (found, newValue) {
      case (true, let value?): members[index].value = value
      case (true, nil): members.remove(at: index)
      case (false, let value?): members.insert((key, value), at: index)
      case (false, nil): break
      }
    }
  }

  /// Whether `a` comes before `b` in canonical order: byte-wise on their UTF-8 encodings.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// The index of `key`, or where it would be inserted, by binary search.
  private func position(of key: String) -> (index: Int, found: Bool) {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      let candidate = members[middle].key
      if candidate.utf8.elementsEqual(key.utf8) { return (middle, true) }
      if Self.precedes(candidate, key) { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
