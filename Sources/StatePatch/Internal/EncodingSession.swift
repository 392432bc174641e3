/// The state of one encoding run: whether nested values are encoded at once (deep) or kept as
/// typed values for the differ (shallow), and the count of JSON nodes built.
///
/// Its hot stored properties are `@exclusivity(unchecked)`: one thread uses an instance, each
/// access is a short read or append that never overlaps another, and the runtime's dynamic
/// exclusivity checks cost a tenth of a small diff.
final class EncodingSession {
  /// Whether nested values become JSON as they are written (a full encode).
  let deep: Bool
  /// JSON nodes built so far.
  @exclusivity(unchecked) var nodesEncoded = 0
  /// Whether a `URL` or `Decimal` stops the run (see ``JSONCoderForms``).
  let refusesJSONCoderForms: Bool
  /// Whether the run met a `URL` or `Decimal` it refuses.
  var metJSONCoderForm = false

  init(deep: Bool, refusesJSONCoderForms: Bool = false) {
    self.deep = deep
    self.refusesJSONCoderForms = refusesJSONCoderForms
  }

  /// The entry recording `value` (at `codingPath`, built only when needed): JSON for scalars
  /// (and everything when deep), else the value itself.
  func entry<T: Encodable>(
    _ value: T, at codingPath: () -> [any CodingKey]
  ) throws
    -> RecordedEntry
  {
    do {
      if let scalar = try CanonicalScalar.json(of: value) {
        nodesEncoded += 1
        return .json(scalar)
      }
    } catch {
      throw StateEncodingError(
        .nonFiniteNumber(error.value), at: JSONPointer(codingPath: codingPath()))
    }
    if deep { return .json(try encode(value, at: codingPath())) }
    return .value(value)
  }

  /// The canonical JSON of `value`, encoding everything beneath it.
  func encode<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> JSONValue {
    do {
      if let scalar = try CanonicalScalar.json(of: value) {
        nodesEncoded += 1
        return scalar
      }
    } catch {
      throw StateEncodingError(
        .nonFiniteNumber(error.value), at: JSONPointer(codingPath: codingPath))
    }
    if refusesJSONCoderForms, JSONCoderForms.differ(for: T.self) {
      metJSONCoderForm = true
      throw StateEncodingError(
        .encodeFailed(JSONCoderForms.Refused(type: T.self)), at: JSONPointer(codingPath: codingPath)
      )
    }
    if let unordered = TypeTraits.of(T.self).unordered {
      return try unordered.canonicalJSON(of: value, in: self, at: codingPath)
    }
    let box = try record(value, at: codingPath, deep: true)
    return try json(of: box, at: codingPath)
  }

  /// Runs `value.encode(to:)` into a fresh box; errors from the value keep their cause.
  func record<T: Encodable>(
    _ value: T, at codingPath: [any CodingKey], deep: Bool
  ) throws
    -> RecordBox
  {
    let box = RecordBox()
    let session = deep == self.deep ? self : EncodingSession(deep: deep)
    do {
      try value.encode(to: Recorder(box: box, session: session, codingPath: codingPath))
    } catch let error as StateEncodingError {
      throw error
    } catch {
      throw StateEncodingError(.encodeFailed(error), at: JSONPointer(codingPath: codingPath))
    }
    if session !== self { nodesEncoded += session.nodesEncoded }
    return box
  }

  /// The JSON of a recorded entry, encoding a kept value now.
  func json(of entry: RecordedEntry, at codingPath: [any CodingKey]) throws -> JSONValue {
    switch entry {
    case .json(let value): return value
    case .value(let value): return try encode(value, at: codingPath)
    case .container(let box): return try json(of: box, at: codingPath)
    }
  }

  /// The JSON of a recorded container: objects sorted, a box with nothing written is `{}`.
  func json(of box: RecordBox, at codingPath: [any CodingKey]) throws -> JSONValue {
    switch box.shape {
    case .single:
      return try json(of: box.entries[0], at: codingPath)
    case .unkeyed:
      nodesEncoded += 1
      var elements: [JSONValue] = []
      elements.reserveCapacity(box.entries.count)
      for (index, entry) in box.entries.enumerated() {
        if case .json(let value) = entry {
          elements.append(value)
        } else {
          elements.append(try json(of: entry, at: codingPath + [PathKey(intValue: index)]))
        }
      }
      return .array(elements)
    case .keyed:
      nodesEncoded += 1
      var members: [(key: String, value: JSONValue)] = []
      members.reserveCapacity(box.keys.count)
      for member in box.sortedMembers() {
        if case .json(let value) = member.entry {
          members.append((member.key, value))
        } else {
          let path = codingPath + [PathKey(stringValue: member.key)]
          members.append((member.key, try json(of: member.entry, at: path)))
        }
      }
      return .object(JSONObject(sortedMembers: members))
    case .empty:
      nodesEncoded += 1
      return .object(JSONObject())
    }
  }
}
