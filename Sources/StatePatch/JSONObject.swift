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

  /// An object of members already sorted by ``JSONObject/precedes(_:_:)`` with unique keys;
  /// anything else is a programmer error and traps.
  public init(sortedMembers: [(key: String, value: JSONValue)]) {
    precondition(
      zip(sortedMembers, sortedMembers.dropFirst()).allSatisfy { Self.precedes($0.key, $1.key) },
      "JSONObject(sortedMembers:) needs unique keys in canonical order")
    members = sortedMembers
  }

  /// An object of members the parser already sorted and checked.
  init(uncheckedSortedMembers members: [(key: String, value: JSONValue)]) {
    self.members = members
  }

  /// The number of members.
  public var count: Int { members.count }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }

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
    UTF8Bytes.compare(a, b) < 0
  }

  /// The index of `key`, or where it would be inserted, by binary search.
  func position(of key: String) -> (index: Int, found: Bool) {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      let order = UTF8Bytes.compare(members[middle].key, key)
      if order == 0 { return (middle, true) }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  /// Whether the object has a member named `key`.
  public func contains(key: String) -> Bool {
    position(of: key).found
  }

  /// Sets the value of `key`, returning the value it replaced, if any.
  @discardableResult
  public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
    let (index, found) = position(of: key)
    if found {
      let old = members[index].value
      members[index].value = value
      return old
    }
    members.insert((key, value), at: index)
    return nil
  }

  /// Removes the member `key`, returning its value, or nil when there was none.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    let (index, found) = position(of: key)
    guard found else { return nil }
    return members.remove(at: index).value
  }

  /// Calls `body` with the value of the member at `index` of ``members``, in place.
  mutating func modifyValue<Result, Failure: Error>(
    at index: Int, _ body: (inout JSONValue) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(&members[index].value)
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.count == rhs.members.count
      && lhs.members.elementsEqual(rhs.members) {
        UTF8Bytes.equal($0.key, $1.key) && $0.value == $1.value
      }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
