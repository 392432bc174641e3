#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One run of the decoding probe behind ``SchemaDescription``: it decodes a type from a decoder
/// that answers every request with a default value and writes down what was asked, building a
/// tree of ``ProbeNode``s.
///
/// In the present mode every member is there (so the whole shape is seen); in the absent mode
/// no optional member is (`contains` is false, `decodeIfPresent` gives nil), so the value the
/// type builds holds its defaults.
final class SchemaProbe {
  /// How deep values are followed, so recursive types terminate.
  static let maximumDepth = 12
  /// How many nodes a run may make, so wide recursive types terminate.
  static let maximumNodes = 5_000

  let absent: Bool
  var nodes = 0
  /// Why the run could not describe everything, the first time it could not.
  var problem: String?

  init(absent: Bool) {
    self.absent = absent
  }

  func makeNode() -> ProbeNode {
    nodes += 1
    return ProbeNode()
  }

  /// The default value of `type`, describing it into `node`.
  func probe<T: Decodable>(
    _ type: T.Type, into node: ProbeNode, at path: [any CodingKey]
  ) throws
    -> T
  {
    guard path.count <= Self.maximumDepth, nodes <= Self.maximumNodes else {
      throw fail(node, "\(T.self) is nested too deep to describe")
    }
    if let scalar = scalar(type, into: node) { return scalar }
    if let collection = type as? any SchemaProbeCollection.Type {
      return try collection.probeDefault(probe: self, into: node, at: path) as! T
    }
    if let enumeration = type as? any (CaseIterable & Encodable).Type,
      let first = enumeration.probeCases(into: node) as? T
    {
      return first
    }
    do {
      return try T(from: ProbeDecoder(probe: self, node: node, codingPath: path))
    } catch let failure as ProbeFailure {
      throw failure
    } catch {
      throw fail(node, "\(T.self) does not decode from default values (\(error))")
    }
  }

  /// Marks `node` as not described and notes why.
  func fail(_ node: ProbeNode, _ reason: String) -> ProbeFailure {
    node.kind = .opaque(reason)
    if problem == nil { problem = reason }
    return ProbeFailure(reason: reason)
  }

  private func scalar<T>(_ type: T.Type, into node: ProbeNode) -> T? {
    func record<V>(_ shape: SchemaShape, _ value: V) -> T {
      node.kind = .shape(shape)
      return value as! T
    }
    switch type {
    case is Bool.Type: return record(.boolean, false)
    case is String.Type: return record(.string, "")
    case is Double.Type: return record(.number("Double"), 0.0)
    case is Float.Type: return record(.number("Float"), Float(0))
    case is Int.Type: return record(.integer("Int"), 0)
    case is Int8.Type: return record(.integer("Int8"), Int8(0))
    case is Int16.Type: return record(.integer("Int16"), Int16(0))
    case is Int32.Type: return record(.integer("Int32"), Int32(0))
    case is Int64.Type: return record(.integer("Int64"), Int64(0))
    case is UInt.Type: return record(.integer("UInt"), UInt(0))
    case is UInt8.Type: return record(.integer("UInt8"), UInt8(0))
    case is UInt16.Type: return record(.integer("UInt16"), UInt16(0))
    case is UInt32.Type: return record(.integer("UInt32"), UInt32(0))
    case is UInt64.Type: return record(.integer("UInt64"), UInt64(0))
    case is Data.Type: return record(.data, Data())
    default: return nil
    }
  }
}

/// Stops a probe that cannot go on (the node that failed says why).
struct ProbeFailure: Error {
  let reason: String
}

/// What the probe saw at one place.
final class ProbeNode {
  enum Kind {
    /// Nothing was asked.
    case unset
    case shape(SchemaShape)
    case keyed
    case unkeyed(ProbeNode)
    case dictionary(ProbeNode)
    case nullable(ProbeNode)
    case opaque(String)
  }

  var kind = Kind.unset
  /// The members of a keyed node, in the order they were asked for.
  var fields: [(name: String, node: ProbeNode, required: Bool)] = []
  /// Whether the type asked whether the value is null (a custom `decodeNil`).
  var nullable = false

  /// The node of member `name`, made on first use; `required` stays false once any request
  /// for the member allowed it to be absent.
  func field(_ name: String, required: Bool, probe: SchemaProbe) -> ProbeNode {
    kind = .keyed
    if let index = fields.firstIndex(where: { $0.name == name }) {
      fields[index].required = fields[index].required && required
      return fields[index].node
    }
    let node = probe.makeNode()
    fields.append((name, node, required))
    return node
  }

  var shape: SchemaShape {
    let shape: SchemaShape
    switch kind {
    case .unset: shape = .anything
    case .shape(let known): shape = known
    case .keyed:
      var members: [String: SchemaField] = [:]
      for field in fields {
        members[field.name] = SchemaField(shape: field.node.shape, required: field.required)
      }
      shape = .object(members)
    case .unkeyed(let element): shape = .array(element.shape)
    case .dictionary(let value): shape = .dictionary(value.shape)
    case .nullable(let wrapped): shape = .nullable(wrapped.shape)
    case .opaque(let text): shape = .opaque(text)
    }
    if nullable, case .nullable = shape { return shape }
    return nullable ? .nullable(shape) : shape
  }
}

/// Collections the probe describes by their element (so that an element type it cannot
/// describe, or a recursive one, ends in an empty collection instead of a failure).
protocol SchemaProbeCollection {
  static func probeDefault(
    probe: SchemaProbe, into node: ProbeNode, at path: [any CodingKey]
  )
    throws -> Any
}

extension Array: SchemaProbeCollection where Element: Decodable {
  static func probeDefault(
    probe: SchemaProbe, into node: ProbeNode, at path: [any CodingKey]
  )
    throws -> Any
  {
    let element = probe.makeNode()
    node.kind = .unkeyed(element)
    guard
      let value = try? probe.probe(Element.self, into: element, at: path + [PathKey(intValue: 0)])
    else { return [Element]() }
    return [value]
  }
}

extension Dictionary: SchemaProbeCollection where Key == String, Value: Decodable {
  static func probeDefault(
    probe: SchemaProbe, into node: ProbeNode, at path: [any CodingKey]
  )
    throws -> Any
  {
    let value = probe.makeNode()
    node.kind = .dictionary(value)
    guard
      let member = try? probe.probe(Value.self, into: value, at: path + [PathKey(stringValue: "*")])
    else { return [String: Value]() }
    return ["*": member]
  }
}

extension Optional: SchemaProbeCollection where Wrapped: Decodable {
  static func probeDefault(
    probe: SchemaProbe, into node: ProbeNode, at path: [any CodingKey]
  )
    throws -> Any
  {
    let wrapped = probe.makeNode()
    node.kind = .nullable(wrapped)
    guard !probe.absent else { return Wrapped?.none as Any }
    return (try? probe.probe(Wrapped.self, into: wrapped, at: path)) as Any
  }
}

extension CaseIterable where Self: Encodable {
  /// Records the cases' JSON as an enumeration; returns the first case.
  fileprivate static func probeCases(into node: ProbeNode) -> Any? {
    var encoder = StateEncoder()
    var values: [JSONValue] = []
    for value in allCases {
      guard let json = try? encoder.encode(value) else { return nil }
      values.append(json)
    }
    guard let first = allCases.first else { return nil }
    node.kind = .shape(.enumeration(values))
    return first
  }
}

/// The probing decoder at one node.
struct ProbeDecoder: Decoder {
  let probe: SchemaProbe
  let node: ProbeNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if case .keyed = node.kind {} else { node.kind = .keyed }
    return KeyedDecodingContainer(
      ProbeKeyedContainer<Key>(probe: probe, node: node, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let element = probe.makeNode()
    node.kind = .unkeyed(element)
    return ProbeUnkeyedContainer(probe: probe, element: element, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ProbeSingleValueContainer(probe: probe, node: node, codingPath: codingPath)
  }
}

struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  let probe: SchemaProbe
  let node: ProbeNode
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool {
    node.nullable = true
    return false
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try probe.probe(type, into: node, at: codingPath)
  }
}

/// Probes the first element into one node; later elements go to nodes of their own, unused.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  let probe: SchemaProbe
  let element: ProbeNode
  let codingPath: [any CodingKey]
  var count: Int? { 1 }
  var isAtEnd: Bool { currentIndex >= 1 }
  var currentIndex = 0

  init(probe: SchemaProbe, element: ProbeNode, codingPath: [any CodingKey]) {
    self.probe = probe
    self.element = element
    self.codingPath = codingPath
  }

  private mutating func next() -> (ProbeNode, [any CodingKey]) {
    defer { currentIndex += 1 }
    let path = codingPath + [PathKey(intValue: currentIndex)]
    return (currentIndex == 0 ? element : probe.makeNode(), path)
  }

  mutating func decodeNil() throws -> Bool {
    element.nullable = true
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (node, path) = next()
    return try probe.probe(type, into: node, at: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (node, path) = next()
    return try ProbeDecoder(probe: probe, node: node, codingPath: path).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (node, path) = next()
    return try ProbeDecoder(probe: probe, node: node, codingPath: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (node, path) = next()
    return ProbeDecoder(probe: probe, node: node, codingPath: path)
  }
}
