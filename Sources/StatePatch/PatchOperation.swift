/// One RFC 6902 JSON Patch operation.
public enum PatchOperation: Sendable, Hashable {
  case add(path: JSONPointer, value: JSONValue)
  case remove(path: JSONPointer)
  case replace(path: JSONPointer, value: JSONValue)
  case move(from: JSONPointer, path: JSONPointer)
  case copy(from: JSONPointer, path: JSONPointer)
  case test(path: JSONPointer, value: JSONValue)
}

/// An RFC 6902 JSON Patch: operations applied in order, all or nothing.
public struct JSONPatch: Sendable, Hashable {
  public var operations: [PatchOperation]

  public init(_ operations: [PatchOperation] = []) {
    self.operations = operations
  }
}
