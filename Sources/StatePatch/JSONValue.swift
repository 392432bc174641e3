/// A JSON document: the tree that Tandem diffs, patches, hashes and sends.
///
/// Numbers keep their kind: integers that fit in 64 bits are exact (`int`, or `uint` above
/// `Int64.max`), everything else is a `double`. Objects keep their members in canonical order
/// (see ``JSONObject``), so equal documents are equal values and serialize to equal bytes.
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
}
