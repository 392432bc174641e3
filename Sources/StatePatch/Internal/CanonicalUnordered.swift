/// Collections whose own `encode(to:)` writes in hash order, which is not canonical: a `Set`,
/// and a `Dictionary` whose keys are neither `String`, `Int` nor `CodingKeyRepresentable` (those
/// write a keyed container, which becomes an object and is sorted like every object).
protocol CanonicalUnordered {
  /// Whether this collection type's own encoding is in hash order (so the encoder sorts it).
  static var isUnordered: Bool { get }

  /// The canonical JSON of the collection, or nil when its own encoding is already canonical.
  func canonicalJSON(
    in session: EncodingSession, at codingPath: [any CodingKey]
  ) throws
    -> JSONValue?
}

extension CanonicalUnordered {
  /// The canonical JSON of `value`, a value of this type whose type ``isUnordered``.
  static func canonicalJSON<T>(
    of value: T, in session: EncodingSession, at codingPath: [any CodingKey]
  ) throws -> JSONValue {
    guard let json = try (value as! Self).canonicalJSON(in: session, at: codingPath) else {
      preconditionFailure("StatePatch: \(Self.self) has no canonical JSON of its own")
    }
    return json
  }
}

extension Set: CanonicalUnordered where Element: Encodable {
  static var isUnordered: Bool { true }

  /// An array of the elements sorted in ``CanonicalOrder``, which `Set.init(from:)` reads back.
  func canonicalJSON(
    in session: EncodingSession, at codingPath: [any CodingKey]
  ) throws
    -> JSONValue?
  {
    var elements: [JSONValue] = []
    elements.reserveCapacity(count)
    for element in self {
      elements.append(try session.encode(element, at: codingPath))
    }
    elements.sort(by: CanonicalOrder.precedes)
    session.nodesEncoded += 1
    return .array(elements)
  }
}

extension Dictionary: CanonicalUnordered where Key: Encodable, Value: Encodable {
  /// Whether `Dictionary.encode(to:)` writes a keyed container for this key type.
  static var encodesKeyed: Bool {
    Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type
  }

  static var isUnordered: Bool { !encodesKeyed }

  /// For other key types, the flat `[key, value, key, value, ...]` array that
  /// `Dictionary.init(from:)` reads, with pairs sorted by the canonical order of their keys.
  func canonicalJSON(
    in session: EncodingSession, at codingPath: [any CodingKey]
  ) throws
    -> JSONValue?
  {
    if Self.encodesKeyed { return nil }
    var pairs: [(key: JSONValue, value: JSONValue)] = []
    pairs.reserveCapacity(count)
    for (key, value) in self {
      let path = codingPath + [PathKey(intValue: pairs.count * 2)]
      pairs.append((try session.encode(key, at: path), try session.encode(value, at: path)))
    }
    pairs.sort { a, b in
      if a.key == b.key { return CanonicalOrder.precedes(a.value, b.value) }
      return CanonicalOrder.precedes(a.key, b.key)
    }
    session.nodesEncoded += 1
    return .array(pairs.flatMap { [$0.key, $0.value] })
  }
}
