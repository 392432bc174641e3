#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One entry of an ``ActionRegistry``: a `Codable` action type, its tag, and type-erased coders.
struct RegisteredActionType: Sendable {
  /// The stable tag the type travels under.
  let tag: String
  /// The identity of the Swift type, to find the tag of an action.
  let typeID: ObjectIdentifier
  /// The Swift type name, for messages and the fingerprint; never sent on the wire.
  let typeName: String
  /// What the type's `Decodable` initializer asks for (see ``TypeShape``).
  let shape: String
  /// The type itself, for coders outside this module.
  let type: any (Action & Codable).Type
  /// Encodes an action of this type as JSON.
  let encode: @Sendable (any Action) throws -> [UInt8]
  /// Decodes an action of this type from JSON.
  let decode: @Sendable ([UInt8]) throws -> any Action
  /// Decodes an action of this type from the `payload` member of a JSON object.
  let decodePayloadMember: @Sendable ([UInt8]) throws -> any Action

  init<A: Action & Codable>(_ type: A.Type, tag: String) {
    self.tag = tag
    self.typeID = ObjectIdentifier(type)
    self.typeName = stableTypeName(type)
    self.shape = TypeShape.describe(type)
    self.type = type
    self.encode = { action in
      guard let typed = action as? A else {
        preconditionFailure("Tandem: \(Swift.type(of: action)) was encoded as \(A.self)")
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return Array(try encoder.encode(typed))
    }
    self.decode = { bytes in
      try JSONDecoder().decode(A.self, from: Data(bytes))
    }
    self.decodePayloadMember = { bytes in
      try JSONDecoder().decode(PayloadMember<A>.self, from: Data(bytes)).payload
    }
  }
}

/// A JSON object whose `payload` member holds a value; other members are ignored.
private struct PayloadMember<Payload: Decodable>: Decodable {
  let payload: Payload
}

/// The Swift name of `type` with its module, without the per-process addresses the runtime puts
/// in the names of private and local types (`(unknown context at $10a3c4f00)`).
package func stableTypeName(_ type: Any.Type) -> String {
  let name = String(reflecting: type)
  var result = ""
  var rest = Substring(name)
  while let start = rest.firstRange(of: "(unknown context at $") {
    result += rest[..<start.lowerBound]
    result += "(private)"
    rest = rest[start.upperBound...]
    if let close = rest.firstIndex(of: ")") {
      rest = rest[rest.index(after: close)...]
    } else {
      rest = ""
    }
  }
  result += rest
  return result
}
