/// A JSON object: members kept sorted by the UTF-8 bytes of their keys (the canonical order),
/// each key once.
public struct JSONObject: Sendable, Hashable {
  /// The members in canonical order.
  public private(set) var members: [(key: String, value: JSONValue)]

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
