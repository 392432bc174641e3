/// The `Encoder` behind both the canonical encoder and the differ: it records what a value's
/// `encode(to:)` writes into a ``RecordBox``, either encoding nested values at once (deep) or
/// keeping them as typed values so the differ can compare them before encoding (shallow).
struct Recorder: Encoder {
  let box: RecordBox
  let session: EncodingSession
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    box.become(.keyed)
    return KeyedEncodingContainer(
      KeyedRecorder<Key>(box: box, session: session, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    box.become(.unkeyed)
    return UnkeyedRecorder(box: box, session: session, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    box.become(.single)
    return SingleValueRecorder(box: box, session: session, codingPath: codingPath)
  }
}

/// Records the members of a keyed container.
struct KeyedRecorder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: RecordBox
  let session: EncodingSession
  let codingPath: [any CodingKey]

  private func put(_ json: JSONValue, _ key: Key) {
    session.nodesEncoded += 1
    box.put(key.stringValue, .json(json))
  }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try encodeValue(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try encodeValue(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    put(CanonicalScalar.json(UInt64(value)), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    put(CanonicalScalar.json(value), key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeValue(value, key)
  }

  private func encodeValue<T: Encodable>(_ value: T, _ key: Key) throws {
    box.put(key.stringValue, try session.entry(value) { codingPath + [key] })
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = RecordBox()
    box.put(key.stringValue, .container(nested))
    return Recorder(box: nested, session: session, codingPath: codingPath + [key])
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = RecordBox()
    box.put(key.stringValue, .container(nested))
    return Recorder(box: nested, session: session, codingPath: codingPath + [key])
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: PathKey.superKey)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key)
  }

  private func superEncoder(named key: any CodingKey) -> any Encoder {
    let nested = RecordBox()
    box.put(key.stringValue, .container(nested))
    return Recorder(box: nested, session: session, codingPath: codingPath + [key])
  }
}

/// Records the elements of an unkeyed container.
struct UnkeyedRecorder: UnkeyedEncodingContainer {
  let box: RecordBox
  let session: EncodingSession
  let codingPath: [any CodingKey]
  var count: Int { box.entries.count }

  private var nextPath: [any CodingKey] { codingPath + [PathKey(intValue: count)] }

  private func put(_ json: JSONValue) {
    session.nodesEncoded += 1
    box.entries.append(.json(json))
  }

  mutating func encodeNil() throws { put(.null) }
  mutating func encode(_ value: Bool) throws { put(.bool(value)) }
  mutating func encode(_ value: String) throws { put(.string(value)) }
  mutating func encode(_ value: Int) throws { put(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { put(.int(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.entries.append(try session.entry(value) { nextPath })
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  )
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = RecordBox()
    let path = nextPath
    box.entries.append(.container(nested))
    return Recorder(box: nested, session: session, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = RecordBox()
    let path = nextPath
    box.entries.append(.container(nested))
    return Recorder(box: nested, session: session, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let nested = RecordBox()
    let path = nextPath
    box.entries.append(.container(nested))
    return Recorder(box: nested, session: session, codingPath: path)
  }
}

/// Records the one value of a single-value container.
struct SingleValueRecorder: SingleValueEncodingContainer {
  let box: RecordBox
  let session: EncodingSession
  let codingPath: [any CodingKey]

  private func put(_ entry: RecordedEntry) {
    precondition(box.entries.isEmpty, "a single-value container was written twice")
    box.entries.append(entry)
  }

  mutating func encodeNil() throws {
    session.nodesEncoded += 1
    put(.json(.null))
  }

  mutating func encode(_ value: Bool) throws {
    session.nodesEncoded += 1
    put(.json(.bool(value)))
  }

  mutating func encode(_ value: String) throws {
    session.nodesEncoded += 1
    put(.json(.string(value)))
  }

  mutating func encode(_ value: Int) throws {
    session.nodesEncoded += 1
    put(.json(.int(Int64(value))))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    put(try session.entry(value) { codingPath })
  }
}
