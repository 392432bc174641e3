/// Applies a patch to a document one operation at a time, keeping the operations that undo it,
/// so that a ``StateReplica`` can put its document back after a failed typed update without
/// holding a second reference to the document (which would make every edit copy its path).
struct ReversiblePatch {
  /// The operations that undo what was applied, in the order they must run.
  private(set) var undo: [PatchOperation] = []

  /// Applies `patch` to `document` in place; if an operation fails, the ones before it are
  /// undone and the error names the failing operation's index in `patch`.
  mutating func apply(_ patch: JSONPatch, to document: inout JSONValue) throws(JSONPatchError) {
    for (index, operation) in patch.operations.enumerated() {
      do {
        try apply(operation, to: &document)
      } catch {
        var failure = error
        failure.operationIndex = index
        revert(&document)
        throw failure
      }
    }
  }

  /// Undoes every operation applied so far. An undo step only puts back what was there, so
  /// it is not held to a depth limit: the document may be deeper than the parser's default
  /// (a replica of a typed state is encoded without one).
  mutating func revert(_ document: inout JSONValue) {
    while let step = undo.popLast() {
      do {
        try JSONPatch([step]).apply(to: &document, maximumDepth: .max)
      } catch {
        preconditionFailure("undoing a patch step failed: \(error)")
      }
    }
  }

  private mutating func apply(
    _ operation: PatchOperation, to document: inout JSONValue
  )
    throws(JSONPatchError)
  {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path, to: &document)
    case .copy(let from, let path):
      guard let value = document[pointer: from] else {
        try JSONPatch([operation]).apply(to: &document)  // throws the applier's own error
        return
      }
      try add(value, at: path, to: &document)
    case .remove(let path):
      let old = document[pointer: path]
      try JSONPatch([operation]).apply(to: &document)
      if let old { undo.append(.add(path: path, value: old)) }
    case .replace(let path, _):
      let old = document[pointer: path]
      try JSONPatch([operation]).apply(to: &document)
      if let old { undo.append(.replace(path: path, value: old)) }
    case .move(let from, let path):
      if from == path || from.isPrefix(of: path) {
        try JSONPatch([operation]).apply(to: &document)  // a no-op, or the applier's error
        return
      }
      guard let value = document[pointer: from] else {
        try JSONPatch([operation]).apply(to: &document)
        return
      }
      try apply(.remove(path: from), to: &document)
      try add(value, at: path, to: &document)
    case .test:
      try JSONPatch([operation]).apply(to: &document)
    }
  }

  /// `add`, with the step that undoes it: a `replace` of an object member it overwrote, else a
  /// `remove` of what it inserted (at the index that `-` stood for).
  private mutating func add(
    _ value: JSONValue, at path: JSONPointer, to document: inout JSONValue
  )
    throws(JSONPatchError)
  {
    let step = Self.undoStep(forAddingAt: path, in: document)
    try JSONPatch([.add(path: path, value: value)]).apply(to: &document)
    if let step { undo.append(step) }
  }

  /// Looks only at what it needs, so that no copy of a container outlives the call.
  private static func undoStep(
    forAddingAt path: JSONPointer, in document: JSONValue
  )
    -> PatchOperation?
  {
    guard let parentPath = path.parent, let last = path.tokens.last else {
      return .replace(path: .root, value: document)
    }
    switch document[pointer: parentPath] {
    case .object(let object):
      if let old = object[last] { return .replace(path: path, value: old) }
      return .remove(path: path)
    case .array(let elements):
      let index = last == "-" ? elements.count : Int(last) ?? elements.count
      return .remove(path: parentPath.appending(index: index))
    default:
      return nil
    }
  }
}
