extension JSONPatch {
  /// Reads a patch from its RFC 6902 JSON: an array of operation objects.
  ///
  /// ```swift
  /// let patch = try JSONPatch(json: JSONValue(parsing: #"[{"op":"remove","path":"/a"}]"#))
  /// patch.operations  // [.remove(path: "/a")]
  /// ```
  ///
  /// Each operation needs `op` and `path` strings, `value` for `add`, `replace` and `test`
  /// (which may be `null`, but must be present), and a `from` string for `move` and `copy`;
  /// other members are ignored, as RFC 6902 asks.
  ///
  /// - Throws: ``JSONPatchError`` naming the first bad operation, with reason
  ///   ``JSONPatchError/Reason/malformed(_:)`` or ``JSONPatchError/Reason/invalidPointer(_:)``.
  public init(json: JSONValue) throws(JSONPatchError) {
    guard case .array(let elements) = json else {
      throw JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("a JSON Patch must be an array"))
    }
    var operations: [PatchOperation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      operations.append(try Self.operation(from: element, index: index))
    }
    self.init(operations)
  }

  /// The patch as RFC 6902 JSON: an array of objects with `op`, `path` and, as the operation
  /// needs, `from` and `value`.
  public var json: JSONValue {
    .array(operations.map(\.json))
  }

  /// The canonical bytes of the patch's RFC 6902 JSON (see ``JSONValue/canonicalBytes()``).
  public func canonicalBytes() -> [UInt8] {
    var writer = CanonicalWriter()
    writer.write(self)
    return writer.bytes
  }

  private static func operation(
    from element: JSONValue, index: Int
  ) throws(JSONPatchError)
    -> PatchOperation
  {
    func fail(_ text: String, _ pointer: JSONPointer = .root) -> JSONPatchError {
      JSONPatchError(operationIndex: index, pointer: pointer, reason: .malformed(text))
    }
    guard case .object(let object) = element else {
      throw fail("an operation must be an object")
    }
    func pointer(_ name: String) throws(JSONPatchError) -> JSONPointer {
      guard let member = object[name] else { throw fail("missing \"\(name)\"") }
      guard case .string(let text) = member else { throw fail("\"\(name)\" must be a string") }
      do {
        return try JSONPointer(parsing: text)
      } catch {
        throw JSONPatchError(operationIndex: index, pointer: .root, reason: .invalidPointer(error))
      }
    }
    guard let op = object["op"] else { throw fail("missing \"op\"") }
    guard case .string(let name) = op else { throw fail("\"op\" must be a string") }
    let path = try pointer("path")
    func value() throws(JSONPatchError) -> JSONValue {
      guard let value = object["value"] else { throw fail("missing \"value\"", path) }
      return value
    }
    switch name {
    case "add": return .add(path: path, value: try value())
    case "remove": return .remove(path: path)
    case "replace": return .replace(path: path, value: try value())
    case "move": return .move(from: try pointer("from"), path: path)
    case "copy": return .copy(from: try pointer("from"), path: path)
    case "test": return .test(path: path, value: try value())
    default: throw fail("unknown operation \"\(name)\"", path)
    }
  }
}

extension PatchOperation {
  /// The operation as an RFC 6902 JSON object.
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    if case .move(let from, _) = self { members.append(("from", .string(from.description))) }
    if case .copy(let from, _) = self { members.append(("from", .string(from.description))) }
    members.append(("op", .string(name)))
    members.append(("path", .string(path.description)))
    switch self {
    case .add(_, let value), .replace(_, let value), .test(_, let value):
      members.append(("value", value))
    case .remove, .move, .copy:
      break
    }
    return .object(JSONObject(sortedMembers: members))
  }
}
