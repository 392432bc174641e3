/// The `Decoder` of a patched decode: it decodes the new document but hands each type, member by
/// member, the old typed value of that member when the patch touched nothing beneath it.
///
/// The old value's members come from recording one level of its `encode(to:)` (a ``RecordBox``
/// of typed values), so a struct gets its untouched fields back without decoding them.
struct PatchingDecoder: Decoder {
  let box: RecordBox
  let value: JSONValue
  let touch: Touch
  let session: DecodingSession
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private var plain: ValueDecoder {
    ValueDecoder(value: value, session: session, codingPath: codingPath)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard box.shape == .keyed, case .object(let object) = value else {
      return try plain.container(keyedBy: type)
    }
    return KeyedDecodingContainer(
      PatchingKeyedDecoder<Key>(
        box: box,
        plain: KeyedValueDecoder(object: object, session: session, codingPath: codingPath),
        touch: touch))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try plain.unkeyedContainer()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    PatchingSingleValueDecoder(decoder: self)
  }
}

/// The one value of a patched single-value container.
struct PatchingSingleValueDecoder: SingleValueDecodingContainer {
  let decoder: PatchingDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool { decoder.value == .null }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let session = decoder.session
    if decoder.box.shape == .single, case .value = decoder.box.entries[0] {
      return try session.patched(
        type, old: OldValue(box: decoder.box, index: 0), from: decoder.value,
        touch: decoder.touch, at: codingPath)
    }
    return try session.decode(type, from: decoder.value, at: codingPath)
  }
}

/// The members of a patched keyed container: untouched members come from the old value.
struct PatchingKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let box: RecordBox
  let plain: KeyedValueDecoder<Key>
  let touch: Touch

  var codingPath: [any CodingKey] { plain.codingPath }
  var allKeys: [Key] { plain.allKeys }

  func contains(_ key: Key) -> Bool { plain.contains(key) }

  func decodeNil(forKey key: Key) throws -> Bool { try plain.decodeNil(forKey: key) }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try plain.decode(type, forKey: key)
  }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try plain.decode(type, forKey: key)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try plain.decode(type, forKey: key)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try plain.decode(type, forKey: key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try plain.decode(type, forKey: key)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let member = try plain.member(key)
    let touched = touch.members[key.stringValue]
    if let index = box.valueIndex(forKey: key.stringValue) {
      return try plain.session.patched(
        type, old: OldValue(box: box, index: index), from: member, touch: touched,
        at: codingPath + [key])
    }
    return try plain.session.decode(type, from: member, at: codingPath + [key])
  }

  private func nested(_ key: any CodingKey) throws -> PatchingDecoder? {
    let touched = touch.members[key.stringValue] ?? Touch()
    guard !touched.fresh, case .container(let old)? = box.entry(forKey: key.stringValue),
      let member = plain.object[key.stringValue]
    else { return nil }
    return PatchingDecoder(
      box: old, value: member, touch: touched, session: plain.session,
      codingPath: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  )
    throws -> KeyedDecodingContainer<NestedKey>
  {
    if let decoder = try nested(key) { return try decoder.container(keyedBy: type) }
    return try plain.nestedContainer(keyedBy: type, forKey: key)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try plain.nestedUnkeyedContainer(forKey: key)
  }

  func superDecoder() throws -> any Decoder {
    try nested(PathKey.superKey) ?? plain.superDecoder()
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try nested(key) ?? plain.superDecoder(forKey: key)
  }
}
