/// Applies a patch to a document one operation at a time, keeping the inverse of every edit,
/// so that a ``StateReplica`` can put its document back after a failed typed update without
/// holding a second reference to the document (which would make every edit copy its path).
struct ReversiblePatch {
  /// The inverses of the edits applied so far, in the order they were made.
  private var log: [UndoStep] = []

  /// Applies `patch` to `document` in place, as ``JSONPatch/apply(to:maximumDepth:)`` does; if
  /// an operation fails, the ones before it are undone and the error names the failing
  /// operation's index in `patch`.
  mutating func apply(_ patch: JSONPatch, to document: inout JSONValue) throws(JSONPatchError) {
    for (index, operation) in patch.operations.enumerated() {
      do {
        try JSONPatch.apply(
          operation, to: &document, maximumDepth: JSONParser.defaultMaximumDepth, log: &log)
      } catch {
        revert(&document)
        throw error.error(operationIndex: index)
      }
    }
  }

  /// Undoes every edit applied so far. An undo step only puts back what was there, so it is
  /// not held to a depth limit: the document may be deeper than the parser's default (a
  /// replica of a typed state is encoded without one).
  mutating func revert(_ document: inout JSONValue) {
    while let step = log.popLast() { document.undo(step) }
  }
}
