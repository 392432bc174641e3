extension SchemaShape {
  /// The shape as JSON: a scalar is its name (`"Bool"`, `"String"`, `"Int64"`, `"Double"`,
  /// `"Data"`, `"Any"`), every other shape an object of one member naming its kind:
  /// `{"enum": [...]}`, `{"nullable": s}`, `{"array": s}`, `{"dictionary": s}`,
  /// `{"object": {name: {"shape": s, "required": b, "default": v}}}` (`default` only when
  /// known), `{"opaque": "text"}`.
  public var json: JSONValue {
    switch self {
    case .boolean: return "Bool"
    case .string: return "String"
    case .integer(let name), .number(let name): return .string(name)
    case .data: return "Data"
    case .anything: return "Any"
    case .enumeration(let cases): return ["enum": .array(cases)]
    case .nullable(let wrapped): return ["nullable": wrapped.json]
    case .array(let element): return ["array": element.json]
    case .dictionary(let value): return ["dictionary": value.json]
    case .opaque(let text): return ["opaque": .string(text)]
    case .object(let fields):
      var members = JSONObject()
      for (name, field) in fields {
        var member = JSONObject([
          (key: "shape", value: field.shape.json), (key: "required", value: .bool(field.required)),
        ])
        if let value = field.defaultValue { member["default"] = value }
        members[name] = .object(member)
      }
      return ["object": .object(members)]
    }
  }

  /// The shape that ``json`` wrote.
  ///
  /// - Throws: ``SchemaDescriptionError`` naming the place that is not a shape.
  public init(json: JSONValue) throws(SchemaDescriptionError) {
    try self.init(json: json, at: .root)
  }

  private static let integerNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
  ]

  private init(json: JSONValue, at pointer: JSONPointer) throws(SchemaDescriptionError) {
    func invalid(_ detail: String) -> SchemaDescriptionError {
      SchemaDescriptionError(pointer: pointer, detail: detail)
    }
    switch json {
    case .string("Bool"): self = .boolean
    case .string("String"): self = .string
    case .string("Data"): self = .data
    case .string("Any"): self = .anything
    case .string(let name) where name == "Double" || name == "Float": self = .number(name)
    case .string(let name) where Self.integerNames.contains(name): self = .integer(name)
    case .object(let object) where object.count == 1:
      let (kind, value) = object.members[0]
      let inner = pointer.appending(kind)
      switch (kind, value) {
      case ("enum", .array(let cases)): self = .enumeration(cases)
      case ("nullable", _): self = .nullable(try SchemaShape(json: value, at: inner))
      case ("array", _): self = .array(try SchemaShape(json: value, at: inner))
      case ("dictionary", _): self = .dictionary(try SchemaShape(json: value, at: inner))
      case ("opaque", .string(let text)): self = .opaque(text)
      case ("object", .object(let members)):
        var fields: [String: SchemaField] = [:]
        for (name, member) in members.members {
          let at = inner.appending(name)
          guard case .object(let field) = member, let shape = field["shape"],
            case .bool(let required)? = field["required"]
          else { throw SchemaDescriptionError(pointer: at, detail: "not a field") }
          fields[name] = SchemaField(
            shape: try SchemaShape(json: shape, at: at.appending("shape")), required: required,
            defaultValue: field["default"])
        }
        self = .object(fields)
      default:
        throw invalid("unknown shape kind \"\(kind)\"")
      }
    default:
      throw invalid("not a shape: \(json.canonicalText)")
    }
  }
}

/// JSON that is not a ``SchemaShape`` or ``SchemaDescription``.
public struct SchemaDescriptionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where in the JSON.
  public var pointer: JSONPointer
  /// What is wrong there.
  public var detail: String

  public init(pointer: JSONPointer, detail: String) {
    self.pointer = pointer
    self.detail = detail
  }

  public var description: String {
    "not a schema description at \(pointer.isRoot ? "the root" : pointer.description): \(detail)"
  }
}
