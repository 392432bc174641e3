/// The `Decoder` that reads a typed value out of a ``JSONValue`` tree.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: JSONValue
  let session: DecodingSession
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private func mismatch(_ expected: String) -> StateDecodingError {
    StateDecodingError(
      .typeMismatch(expected: expected, found: value), at: JSONPointer(codingPath: codingPath))
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else { throw mismatch("an object") }
    return KeyedDecodingContainer(
      KeyedValueDecoder<Key>(object: object, session: session, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch("an array") }
    return UnkeyedValueDecoder(elements: elements, session: session, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { value == .null }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try session.decode(type, from: value, at: codingPath)
  }
}

/// Reads the members of a JSON object.
struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let session: DecodingSession
  let codingPath: [any CodingKey]

  var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key) } }

  func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

  func member(_ key: Key) throws -> JSONValue {
    guard let value = object[key.stringValue] else {
      throw StateDecodingError(
        .keyNotFound(key.stringValue), at: JSONPointer(codingPath: codingPath))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try session.decode(type, from: try member(key), at: codingPath + [key])
  }

  /// A scalar member, without building its coding path unless decoding fails. Inlined into
  /// the `decode` overloads below, so that the session's scalar decode is specialised for the
  /// concrete type there (a generic call costs metadata lookups and the whole type check chain).
  @inline(__always)
  func decodeScalar<T>(_ type: T.Type, forKey key: Key) throws -> T {
    try session.decodeScalar(type, from: try member(key), at: codingPath + [key])
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decodeScalar(type, forKey: key)
  }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decodeScalar(type, forKey: key)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decodeScalar(type, forKey: key)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decodeScalar(type, forKey: key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decodeScalar(type, forKey: key)
  }

  private func decoder(_ key: any CodingKey, _ value: JSONValue) -> ValueDecoder {
    ValueDecoder(value: value, session: session, codingPath: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  )
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try decoder(key, try member(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key, try member(key)).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    decoder(PathKey.superKey, object[PathKey.superKey.stringValue] ?? .null)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder(key, object[key.stringValue] ?? .null)
  }
}

/// Reads the elements of a JSON array in order.
struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let session: DecodingSession
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(elements: [JSONValue], session: DecodingSession, codingPath: [any CodingKey]) {
    self.elements = elements
    self.session = session
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next() throws -> (JSONValue, [any CodingKey]) {
    guard !isAtEnd else {
      throw StateDecodingError(.endOfArray, at: JSONPointer(codingPath: codingPath))
    }
    defer { currentIndex += 1 }
    return (elements[currentIndex], codingPath + [PathKey(intValue: currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw StateDecodingError(.endOfArray, at: JSONPointer(codingPath: codingPath))
    }
    if elements[currentIndex] == .null {
      currentIndex += 1
      return true
    }
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, path) = try next()
    return try session.decode(type, from: value, at: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (value, path) = try next()
    return try ValueDecoder(value: value, session: session, codingPath: path)
      .container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, path) = try next()
    return try ValueDecoder(value: value, session: session, codingPath: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, path) = try next()
    return ValueDecoder(value: value, session: session, codingPath: path)
  }
}
