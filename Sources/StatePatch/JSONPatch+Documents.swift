extension JSONPatch {
  /// A patch from the document `old` to the document `new`: objects member by member (a member
  /// only `old` has is removed, one only `new` has added, one both have compared in turn), any
  /// other value that differs replaced whole. Applied to `old`, it gives `new`.
  ///
  /// ```swift
  /// let patch = JSONPatch(from: ["counter": 5], to: ["counter": 5, "hits": 0])
  /// // [{"op": "add", "path": "/hits", "value": 0}]
  /// ```
  ///
  /// For typed states use ``StateDiffer``, which skips equal subtrees without encoding them;
  /// this is for documents already at hand (a leader migrating a journal's document to its own
  /// encoding).
  public init(from old: JSONValue, to new: JSONValue) {
    var operations: [PatchOperation] = []
    Self.compare(old, new, at: .root, into: &operations)
    self.init(operations)
  }

  private static func compare(
    _ old: JSONValue, _ new: JSONValue, at path: JSONPointer,
    into operations: inout [PatchOperation]
  ) {
    guard old != new else { return }
    guard case .object(let before) = old, case .object(let after) = new else {
      operations.append(.replace(path: path, value: new))
      return
    }
    for (key, _) in before.members where after[key] == nil {
      operations.append(.remove(path: path.appending(key)))
    }
    for (key, value) in after.members {
      if let was = before[key] {
        compare(was, value, at: path.appending(key), into: &operations)
      } else {
        operations.append(.add(path: path.appending(key), value: value))
      }
    }
  }
}
