/// The schema of a `Codable` type as data: the ``SchemaShape`` of the JSON it reads and writes,
/// found by a decoding probe, with the defaults it falls back to where the probe can see them.
///
/// The probe decodes the type from a decoder that answers every request with a default value
/// and writes down what was asked: each member's name and value shape, and whether it was read
/// with `decodeIfPresent` (an `Optional` property, or one with a default that a custom
/// `init(from:)` falls back to), which makes it optional. A second decoding, in which no
/// optional member is present, gives the value the type takes without them; its encoding shows
/// each optional member's default.
///
/// ```swift
/// struct Counter: Codable {
///   var counter = 0
///   var hits = 0
///   var note: String?
///   init(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: CodingKeys.self)
///     counter = try container.decode(Int.self, forKey: .counter)
///     hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 0
///     note = try container.decodeIfPresent(String.self, forKey: .note)
///   }
/// }
/// SchemaDescription(of: Counter.self).shape.summary
/// // {counter: Int, hits?: Int = 0, note?: String}
/// ```
///
/// It is best effort, and says what it could not see (``problem``): an enumeration is described
/// by its cases only when it is `CaseIterable` (otherwise a raw-value enumeration refuses the
/// probe's default raw value); an enumeration with associated values, a validating initializer
/// or a type nested more than 12 deep is ``SchemaShape/opaque(_:)``. An array is probed with
/// one element, a dictionary keyed by strings with one value.
public struct SchemaDescription: Sendable, Hashable {
  /// The Swift type described (for messages; never compared).
  public var typeName: String
  /// The shape of its JSON.
  public var shape: SchemaShape
  /// Why part of the shape is opaque, when it is.
  public var problem: String?

  /// A description with the given parts.
  public init(typeName: String, shape: SchemaShape, problem: String? = nil) {
    self.typeName = typeName
    self.shape = shape
    self.problem = problem
  }

  /// The description of `type`, by the decoding probe.
  public init<T: Codable>(of type: T.Type) {
    let probe = SchemaProbe(absent: false)
    let root = probe.makeNode()
    _ = try? probe.probe(type, into: root, at: [])
    var shape = root.shape
    // The value the type takes when no optional member is there shows the defaults.
    let absent = SchemaProbe(absent: true)
    if let value = try? absent.probe(type, into: absent.makeNode(), at: []) {
      var encoder = StateEncoder()
      if let document = try? encoder.encode(value) {
        shape = Self.withDefaults(shape, from: document)
      }
    }
    self.init(typeName: String(reflecting: type), shape: shape, problem: probe.problem)
  }

  /// `shape` with the default of each optional member that `document` (the encoding of a value
  /// decoded without them) holds.
  private static func withDefaults(_ shape: SchemaShape, from document: JSONValue) -> SchemaShape {
    switch (shape, document) {
    case (.object(var fields), .object(let object)):
      for (name, field) in fields {
        guard let value = object[name] else { continue }
        var updated = field
        updated.shape = withDefaults(field.shape, from: value)
        if !field.required, value != .null { updated.defaultValue = value }
        fields[name] = updated
      }
      return .object(fields)
    case (.array(let element), .array(let values)) where !values.isEmpty:
      return .array(withDefaults(element, from: values[0]))
    case (.dictionary(let value), .object(let object)) where object.count == 1:
      return .dictionary(withDefaults(value, from: object.members[0].value))
    case (.nullable(let wrapped), _) where document != .null:
      return .nullable(withDefaults(wrapped, from: document))
    default:
      return shape
    }
  }

  /// The description as JSON: `{"type": name, "shape": shape}`, with `"problem"` when there
  /// is one (see ``SchemaShape/json``).
  public var json: JSONValue {
    var object = JSONObject([
      (key: "type", value: .string(typeName)), (key: "shape", value: shape.json),
    ])
    if let problem { object["problem"] = .string(problem) }
    return .object(object)
  }

  /// The description that ``json`` wrote.
  ///
  /// - Throws: ``SchemaDescriptionError`` naming the place that is not a description.
  public init(json: JSONValue) throws(SchemaDescriptionError) {
    guard case .object(let object) = json, case .string(let name)? = object["type"],
      let shape = object["shape"]
    else {
      throw SchemaDescriptionError(pointer: .root, detail: "no \"type\" and \"shape\" members")
    }
    var problem: String?
    if case .string(let text)? = object["problem"] { problem = text }
    do {
      self.init(typeName: name, shape: try SchemaShape(json: shape), problem: problem)
    } catch {
      throw SchemaDescriptionError(
        pointer: JSONPointer(tokens: ["shape"] + error.pointer.tokens), detail: error.detail)
    }
  }
}
