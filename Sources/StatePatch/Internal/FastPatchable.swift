/// Types that a patched decode rebuilds with a specialised walk: arrays, `String`-keyed
/// dictionaries and optionals. The result starts as the old value and only touched elements,
/// members or payloads are decoded again; when the old collection is referenced only from
/// here, it is changed in place.
protocol FastPatchable {
  /// The value of the new document `value`, from the old value (of this type) and the touches.
  static func patched(
    old: OldValue, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self
}

extension Array: FastPatchable where Element: Decodable {
  static func patched(
    old: OldValue, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    guard case .array(let elements) = value, var result = old.take(as: Self.self) else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    func element(_ index: Int, old: Element?, touch: Touch?) throws -> Element {
      let path = codingPath + [PathKey(intValue: index)]
      guard let old else {
        return try session.decode(Element.self, from: elements[index], at: path)
      }
      return try session.patched(
        Element.self, old: OldValue(old), from: elements[index], touch: touch, at: path)
    }
    session.nodesDecoded += 1
    if let slots = touch.slots {
      guard slots.count == elements.count else {
        return try session.decode(Self.self, from: value, at: codingPath)
      }
      let previous = result
      result = []
      result.reserveCapacity(slots.count)
      for (index, slot) in slots.enumerated() {
        switch slot {
        case .fresh:
          result.append(try element(index, old: nil, touch: nil))
        case .old(let original, nil):
          session.subtreesReused += 1
          result.append(previous[original])
        case .old(let original, let touched):
          result.append(try element(index, old: previous[original], touch: touched))
        }
      }
      return result
    }
    guard result.count == elements.count else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    session.subtreesReused += 1
    for (index, touched) in touch.elements {
      result[index] = try element(index, old: result[index], touch: touched)
    }
    return result
  }
}

extension Dictionary: FastPatchable where Key == String, Value: Decodable {
  static func patched(
    old: OldValue, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    guard case .object(let object) = value, var result = old.take(as: Self.self) else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    session.nodesDecoded += 1
    session.subtreesReused += 1
    for (key, touched) in touch.members {
      let path = codingPath + [PathKey(stringValue: key)]
      if let member = object[key] {
        if let previous = result[key] {
          result[key] = try session.patched(
            Value.self, old: OldValue(previous), from: member, touch: touched, at: path)
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
    old: OldValue, from value: JSONValue, touch: Touch, in session: DecodingSession,
    at codingPath: [any CodingKey]
  ) throws -> Self {
    if value == .null {
      session.nodesDecoded += 1
      return nil
    }
    guard let previous = old.take(as: Self.self), let wrapped = previous else {
      return try session.decode(Self.self, from: value, at: codingPath)
    }
    return try session.patched(
      Wrapped.self, old: OldValue(wrapped), from: value, touch: touch, at: codingPath)
  }
}
