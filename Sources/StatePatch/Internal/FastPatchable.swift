/// Types that a patched decode rebuilds with a specialised walk: arrays, `String`-keyed
/// dictionaries and optionals. The result starts as the old value and only touched elements,
/// members or payloads are decoded again.
protocol FastPatchable {
  /// The value of the new document `value`, from `old` (a value of this type) and the touches.
  static func patched(
    old: Any, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self
}

extension Array: FastPatchable where Element: Decodable {
  static func patched(
    old: Any, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    guard let old = old as? Self, case .array(let elements) = value else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    func element(_ index: Int, old: Element?, touch: Touch?) throws -> Element {
      let path = codingPath + [PathKey(intValue: index)]
      guard let old else {
        return try session.decode(Element.self, from: elements[index], at: path)
      }
      return try session.patched(
        Element.self, old: old, from: elements[index], touch: touch, at: path)
    }
    session.nodesDecoded += 1
    if let slots = touch.slots {
      guard slots.count == elements.count else {
        return try session.decode(Self.self, from: value, at: codingPath)
      }
      var result: [Element] = []
      result.reserveCapacity(slots.count)
      for (index, slot) in slots.enumerated() {
        switch slot {
        case .fresh:
          result.append(try element(index, old: nil, touch: nil))
        case .old(let original, nil):
          session.subtreesReused += 1
          result.append(old[original])
        case .old(let original, let touched):
          result.append(try element(index, old: old[original], touch: touched))
        }
      }
      return result
    }
    guard old.count == elements.count else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    var result = old
    session.subtreesReused += 1
    for (index, touched) in touch.elements {
      result[index] = try element(index, old: old[index], touch: touched)
    }
    return result
  }
}

extension Dictionary: FastPatchable where Key == String, Value: Decodable {
  static func patched(
    old: Any, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    guard let old = old as? Self, case .object(let object) = value else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    session.nodesDecoded += 1
    session.subtreesReused += 1
    var result = old
    for (key, touched) in touch.members {
      let path = codingPath + [PathKey(stringValue: key)]
      if let member = object[key] {
        if let previous = old[key] {
          result[key] = try session.patched(
            Value.self, old: previous, from: member, touch: touched, at: path)
        } else {
          result[key] = try session.decode(Value.self, from: member, at: path)
        }
      } else {
        result[key] = nil
      }
    }
    guard result.count == object.count else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    return result
  }
}

extension Optional: FastPatchable where Wrapped: Decodable {
  static func patched(
    old: Any, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    if value == .null {
      session.nodesDecoded += 1
      return nil
    }
    guard let previous = old as? Self, let wrapped = previous else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    return try session.patched(
      Wrapped.self, old: wrapped, from: value, touch: touch, at: codingPath)
  }
}
