/// One RFC 6902 JSON Patch operation.
public enum PatchOperation: Sendable, Hashable {
  /// Adds `value` at `path`: inserts into an array (`-` appends), sets an object member
  /// (replacing one already there), or replaces the whole document at the root pointer.
  case add(path: JSONPointer, value: JSONValue)
  /// Removes the value at `path`, which must exist; the root cannot be removed.
  case remove(path: JSONPointer)
  /// Replaces the value at `path`, which must exist.
  case replace(path: JSONPointer, value: JSONValue)
  /// Removes the value at `from` and adds it at `path`; `from` must not be a proper prefix of
  /// `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Succeeds only when the value at `path` equals `value` by RFC 6902's rules: as ``JSONValue``
  /// equality, except that numbers of different kinds compare by value (`1` equals `1.0`).
  case test(path: JSONPointer, value: JSONValue)

  /// The operation's `op` name in RFC 6902 JSON: `add`, `remove`, and so on.
  public var name: String {
    switch self {
    case .add: "add"
    case .remove: "remove"
    case .replace: "replace"
    case .move: "move"
    case .copy: "copy"
    case .test: "test"
    }
  }

  /// The operation's target location (its `path` member).
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
      .copy(_, let path), .test(let path, _):
      path
    }
  }
}

/// An RFC 6902 JSON Patch: operations applied in order, all or nothing.
///
/// ```swift
/// var document: JSONValue = ["count": 1, "tags": ["a"]]
/// let patch = JSONPatch([
///   .replace(path: "/count", value: 2),
///   .add(path: "/tags/-", value: "b"),
/// ])
/// try patch.apply(to: &document)  // ["count": 2, "tags": ["a", "b"]]
/// ```
public struct JSONPatch: Sendable, Hashable {
  /// The operations, applied in order.
  public var operations: [PatchOperation]

  /// A patch of `operations`; the empty patch changes nothing.
  public init(_ operations: [PatchOperation] = []) {
    self.operations = operations
  }
}
