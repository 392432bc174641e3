/// A JSON document: the tree that Tandem diffs, patches, hashes and sends.
///
/// Numbers keep their kind: integers that fit in 64 bits are exact (`int`, or `uint` above
/// `Int64.max`), everything else is a `double`. Objects keep their members in canonical order
/// (see ``JSONObject``), so equal documents are equal values and serialize to equal bytes.
///
/// Equality is the equality of canonical JSON: strings and object keys compare by their UTF-8
/// bytes (not by Swift's canonical equivalence, under which `"é"` precomposed and decomposed are
/// equal), numbers compare within their kind (`.int(5)` is not `.double(5)`), and doubles compare
/// as numbers (`0.0 == -0.0`; the serializer writes both as `0.0`).
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// An integer in `Int64`'s range.
  case int(Int64)
  /// An integer above `Int64.max`; smaller integers are always `int`.
  case uint(UInt64)
  /// A finite floating-point number; NaN and infinities are not JSON.
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.uint(let a), .uint(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): UTF8Bytes.equal(a, b)
    case (.array(let a), .array(let b)): a.count == b.count && a.elementsEqual(b)
    case (.object(let a), .object(let b)): a == b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0 as UInt8)
    case .bool(let value): hasher.combine(value)
    case .int(let value): hasher.combine(value)
    case .uint(let value): hasher.combine(value)
    case .double(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .array(let values):
      hasher.combine(values.count)
      for value in values { hasher.combine(value) }
    case .object(let object): hasher.combine(object)
    }
  }
}
