/// The keyed container of the probe: every member is there in the present mode; in the absent
/// mode only the required ones are (`contains` is false, `decodeIfPresent` gives nil).
///
/// Each `decodeIfPresent` overload is implemented, as the standard library's defaults for the
/// concrete types would go through `contains` and `decodeNil` and hide that the member may be
/// absent.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let probe: SchemaProbe
  let node: ProbeNode
  let codingPath: [any CodingKey]
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool {
    _ = node.field(key.stringValue, required: false, probe: probe)
    return !probe.absent
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    node.field(key.stringValue, required: true, probe: probe).nullable = true
    return probe.absent
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let field = node.field(key.stringValue, required: true, probe: probe)
    return try probe.probe(type, into: field, at: codingPath + [key])
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try optional(type, forKey: key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try optional(type, forKey: key)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try optional(type, forKey: key)
  }

  /// A member that may be absent: nil in the absent mode, and nil too when its type cannot be
  /// described (the node says why), so the members after it are still seen.
  private func optional<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    let field = node.field(key.stringValue, required: false, probe: probe)
    guard !probe.absent else { return nil }
    return try? probe.probe(type, into: field, at: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(forKey: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(forKey: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    let field = node.field(PathKey.superKey.stringValue, required: true, probe: probe)
    return ProbeDecoder(probe: probe, node: field, codingPath: codingPath + [PathKey.superKey])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder(forKey: key)
  }

  private func decoder(forKey key: Key) -> ProbeDecoder {
    let field = node.field(key.stringValue, required: true, probe: probe)
    return ProbeDecoder(probe: probe, node: field, codingPath: codingPath + [key])
  }
}
