/// Describes the structure of a `Decodable` type without an instance, by decoding it from a
/// decoder that answers every request with a default value and writes down what was asked.
///
/// The description lists, in order, each container the type's `init(from:)` opens and each value
/// it decodes, with its coding path and type: `$.url:String $.tags:[] $.tags[0]:String`. It is a
/// pure function of the code, so processes built from the same code describe a type identically.
///
/// A `CaseIterable` type is described by its cases (raw values with their type, or names) and
/// not decoded: `$.kind:enum[book:String,film:String]`.
///
/// It is best effort, and says so: arrays are probed with one element, dictionaries keyed by
/// strings with none (their keys are not known), and a decoding that throws (an enum with
/// associated values, a raw-value enum that is not `CaseIterable` and refuses the default raw
/// value, a validating initializer) ends the description with `!` and the error's kind.
package enum TypeShape {
  /// How deep nested values are followed, so recursive types terminate.
  static let maximumDepth = 12
  /// How many entries a description may have, so wide recursive types terminate.
  static let maximumEntries = 2_000

  /// The description of `type`'s `Decodable` structure.
  package static func describe<T: Decodable>(_ type: T.Type) -> String {
    let log = ShapeLog()
    do {
      _ = try T(from: ShapeDecoder(log: log, codingPath: []))
    } catch let error as ShapeLimitReached {
      log.append("!limit:\(error.reason)")
    } catch let error as DecodingError {
      log.append("!" + decodingErrorKind(error))
    } catch {
      log.append("!error")
    }
    return log.entries.joined(separator: " ")
  }

  private static func decodingErrorKind(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch: return "typeMismatch"
    case .valueNotFound: return "valueNotFound"
    case .keyNotFound: return "keyNotFound"
    case .dataCorrupted: return "dataCorrupted"
    @unknown default: return "decodingError"
    }
  }
}

/// Thrown to stop probing a type that is too deep or too wide.
private struct ShapeLimitReached: Error {
  let reason: String
}

/// What the probed type asked for, in order.
private final class ShapeLog {
  var entries: [String] = []
  /// How many nested `Decodable` initializers are running.
  var nesting = 0

  func append(_ entry: String) {
    entries.append(entry)
  }

  func record(_ codingPath: [any CodingKey], _ what: String) throws {
    guard entries.count < TypeShape.maximumEntries else {
      throw ShapeLimitReached(reason: "entries")
    }
    guard codingPath.count <= TypeShape.maximumDepth else {
      throw ShapeLimitReached(reason: "depth")
    }
    entries.append(Self.path(codingPath) + ":" + what)
  }

  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = "$"
    for key in codingPath {
      if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue.isEmpty {
        text += "[\(index)]"
      } else {
        text += "." + key.stringValue
      }
    }
    return text
  }
}

/// An index key for unkeyed containers.
private struct ShapeIndexKey: CodingKey {
  let intValue: Int?
  let stringValue: String

  init(_ index: Int) {
    intValue = index
    stringValue = "Index \(index)"
  }

  init?(stringValue: String) { nil }

  init?(intValue: Int) { self.init(intValue) }
}

/// The probing decoder.
private struct ShapeDecoder: Decoder {
  let log: ShapeLog
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try log.record(codingPath, "{}")
    return KeyedDecodingContainer(ShapeKeyedContainer<Key>(log: log, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try log.record(codingPath, "[]")
    return ShapeUnkeyedContainer(log: log, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ShapeSingleValueContainer(log: log, codingPath: codingPath)
  }
}

/// Decodes a default value of a standard type, or probes a nested `Decodable` type.
private func probe<T: Decodable>(
  _ type: T.Type, log: ShapeLog, at path: [any CodingKey]
) throws
  -> T
{
  switch type {
  case is Bool.Type: try log.record(path, "Bool"); return false as! T
  case is String.Type: try log.record(path, "String"); return "" as! T
  case is Double.Type: try log.record(path, "Double"); return 0.0 as! T
  case is Float.Type: try log.record(path, "Float"); return Float(0) as! T
  case is Int.Type: try log.record(path, "Int"); return 0 as! T
  case is Int8.Type: try log.record(path, "Int8"); return Int8(0) as! T
  case is Int16.Type: try log.record(path, "Int16"); return Int16(0) as! T
  case is Int32.Type: try log.record(path, "Int32"); return Int32(0) as! T
  case is Int64.Type: try log.record(path, "Int64"); return Int64(0) as! T
  case is UInt.Type: try log.record(path, "UInt"); return UInt(0) as! T
  case is UInt8.Type: try log.record(path, "UInt8"); return UInt8(0) as! T
  case is UInt16.Type: try log.record(path, "UInt16"); return UInt16(0) as! T
  case is UInt32.Type: try log.record(path, "UInt32"); return UInt32(0) as! T
  case is UInt64.Type: try log.record(path, "UInt64"); return UInt64(0) as! T
  default:
    if let enumeration = type as? any CaseIterable.Type {
      let cases = caseList(enumeration)
      if let first = cases.first as? T {
        try log.record(path, "enum[" + cases.names.joined(separator: ",") + "]")
        return first
      }
    }
    log.nesting += 1
    defer { log.nesting -= 1 }
    guard log.nesting <= TypeShape.maximumDepth * 4 else {
      throw ShapeLimitReached(reason: "nesting")
    }
    return try T(from: ShapeDecoder(log: log, codingPath: path))
  }
}

/// The cases of a `CaseIterable` type: the first one, to return from the probe, and each case's
/// raw value (with its type) or name, to describe it.
private func caseList<C: CaseIterable>(_ type: C.Type) -> (first: Any?, names: [String]) {
  let cases = Array(type.allCases)
  let names = cases.map { value -> String in
    if let raw = value as? any RawRepresentable {
      return "\(raw.rawValue):\(Swift.type(of: raw.rawValue))"
    }
    return String(describing: value)
  }
  return (cases.first, names)
}

private struct ShapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let log: ShapeLog
  let codingPath: [any CodingKey]
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool { true }

  func decodeNil(forKey key: Key) throws -> Bool {
    try log.record(codingPath + [key], "nil?")
    return false
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try probe(type, log: log, at: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try log.record(codingPath + [key], "{}")
    return KeyedDecodingContainer(
      ShapeKeyedContainer<NestedKey>(log: log, codingPath: codingPath + [key]))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try log.record(codingPath + [key], "[]")
    return ShapeUnkeyedContainer(log: log, codingPath: codingPath + [key])
  }

  func superDecoder() throws -> any Decoder {
    ShapeDecoder(log: log, codingPath: codingPath + [ShapeIndexKey(0)])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ShapeDecoder(log: log, codingPath: codingPath + [key])
  }
}

/// Holds one element, so an array's element type is probed once.
private struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
  let log: ShapeLog
  let codingPath: [any CodingKey]
  var count: Int? { 1 }
  var isAtEnd: Bool { currentIndex >= 1 }
  var currentIndex = 0

  init(log: ShapeLog, codingPath: [any CodingKey]) {
    self.log = log
    self.codingPath = codingPath
  }

  private var elementPath: [any CodingKey] { codingPath + [ShapeIndexKey(currentIndex)] }

  mutating func decodeNil() throws -> Bool {
    try log.record(elementPath, "nil?")
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try probe(type, log: log, at: elementPath)
    currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let path = elementPath
    currentIndex += 1
    try log.record(path, "{}")
    return KeyedDecodingContainer(ShapeKeyedContainer<NestedKey>(log: log, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let path = elementPath
    currentIndex += 1
    try log.record(path, "[]")
    return ShapeUnkeyedContainer(log: log, codingPath: path)
  }

  mutating func superDecoder() throws -> any Decoder {
    let path = elementPath
    currentIndex += 1
    return ShapeDecoder(log: log, codingPath: path)
  }
}

private struct ShapeSingleValueContainer: SingleValueDecodingContainer {
  let log: ShapeLog
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool {
    log.append(ShapeLog.path(codingPath) + ":nil?")
    return false
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try probe(type, log: log, at: codingPath)
  }
}
