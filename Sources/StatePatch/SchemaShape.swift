/// The shape of the JSON a `Codable` type reads and writes, as a ``SchemaDescription`` sees it:
/// what kind of value sits at each place, which object members must be present, and which
/// values an enumeration allows.
///
/// Shapes are data: they travel in `HELLO` and `WELCOME`, sit in the journal beside each
/// snapshot, and print with `--print-schema`. Their JSON form (``json``) is small and stable:
///
/// ```json
/// {"object": {"counter": {"shape": "Int", "required": true},
///             "hits": {"shape": "Int", "required": false, "default": 0}}}
/// ```
public indirect enum SchemaShape: Sendable, Hashable {
  /// `true` or `false`.
  case boolean
  /// A string.
  case string
  /// An integer of a fixed-width Swift type (`"Int"`, `"UInt8"`, ...), which bounds its range.
  case integer(String)
  /// A floating-point number (`"Double"` or `"Float"`).
  case number(String)
  /// Bytes, as a base64 string.
  case data
  /// One of a fixed set of values: the raw values of a `CaseIterable` enumeration, as JSON.
  case enumeration([JSONValue])
  /// `null` or a value of the wrapped shape (an `Optional` held where a value must be).
  case nullable(SchemaShape)
  /// An array of values of one shape.
  case array(SchemaShape)
  /// An object whose keys are data (a `Dictionary`), with values of one shape.
  case dictionary(SchemaShape)
  /// An object with named members.
  case object([String: SchemaField])
  /// Any JSON value: the type decodes nothing (an empty struct).
  case anything
  /// A value the probe could not describe (an enumeration with associated values, a validating
  /// initializer, a type too deep): the text says what it is and why; two such shapes are
  /// compatible only when their texts are equal.
  case opaque(String)

  /// A short human-readable spelling: `Int`, `[String]`, `{counter: Int, hits?: Int = 0}`,
  /// `enum["a", "b"]`.
  public var summary: String {
    switch self {
    case .boolean: return "Bool"
    case .string: return "String"
    case .integer(let name), .number(let name): return name
    case .data: return "Data"
    case .enumeration(let cases):
      return "enum[" + cases.map(\.canonicalText).joined(separator: ", ") + "]"
    case .nullable(let wrapped): return wrapped.summary + "?"
    case .array(let element): return "[" + element.summary + "]"
    case .dictionary(let value): return "[String: " + value.summary + "]"
    case .object(let fields):
      let members = fields.sorted { JSONObject.precedes($0.key, $1.key) }.map { name, field in
        name + (field.required ? "" : "?") + ": " + field.shape.summary
          + (field.defaultValue.map { " = " + $0.canonicalText } ?? "")
      }
      return "{" + members.joined(separator: ", ") + "}"
    case .anything: return "Any"
    case .opaque(let text): return "opaque(" + text + ")"
    }
  }
}

/// A named member of an object shape.
public struct SchemaField: Sendable, Hashable {
  /// The member's value.
  public var shape: SchemaShape
  /// Whether the decoder needs the member: false for one read with `decodeIfPresent` (an
  /// `Optional` property, or one with a default the type's `init(from:)` falls back to).
  public var required: Bool
  /// The value the type takes when the member is absent, when the probe could see one (it
  /// encodes the value a decoding without the member gives); nil for an `Optional`'s `nil`.
  public var defaultValue: JSONValue?

  public init(shape: SchemaShape, required: Bool, defaultValue: JSONValue? = nil) {
    self.shape = shape
    self.required = required
    self.defaultValue = defaultValue
  }
}
