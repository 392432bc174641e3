import StatePatch

/// Writes a ``StatePatch/JSONValue`` for people: two-space indentation, one member or element
/// per line, scalars exactly as canonical JSON writes them.
///
/// ```swift
/// PrettyJSON.text(["count": 3, "note": "hi"])
/// // {
/// //   "count": 3,
/// //   "note": "hi"
/// // }
/// ```
public enum PrettyJSON {
  /// The indented text of `value` (no trailing newline).
  public static func text(_ value: JSONValue) -> String {
    var output = ""
    write(value, indent: 0, into: &output)
    return output
  }

  private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    switch value {
    case .array(let elements) where !elements.isEmpty:
      output += "[\n"
      for (index, element) in elements.enumerated() {
        output += inner
        write(element, indent: indent + 1, into: &output)
        output += index == elements.count - 1 ? "\n" : ",\n"
      }
      output += String(repeating: "  ", count: indent) + "]"
    case .object(let object) where !object.isEmpty:
      output += "{\n"
      for (index, member) in object.members.enumerated() {
        output += inner + JSONValue.string(member.key).canonicalText + ": "
        write(member.value, indent: indent + 1, into: &output)
        output += index == object.count - 1 ? "\n" : ",\n"
      }
      output += String(repeating: "  ", count: indent) + "}"
    default:
      output += value.canonicalText
    }
  }
}
