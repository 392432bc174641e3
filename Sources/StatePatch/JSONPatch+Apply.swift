extension JSONPatch {
  /// Applies the operations in order to `document`, in place and all or nothing.
  ///
  /// Edits happen in place: each container on an operation's path is taken out of its parent
  /// while it changes, so when the caller owns `document` uniquely, changing one leaf of a large
  /// document costs the path to it (the containers along it), not a copy of the document. If an
  /// operation fails, the operations before it are undone from a log of their inverses and the
  /// error names the failing operation; `document` is then exactly as it was.
  ///
  /// - Parameters:
  ///   - document: the JSON to change, in place.
  ///   - maximumDepth: an operation that would make the document nest deeper than this fails
  ///     with ``JSONPatchError/Reason/tooDeep(limit:)``, which keeps documents within what the
  ///     parser accepts and what recursive code (equality, deinitialization) handles safely.
  /// - Throws: ``JSONPatchError`` with the index of the failing operation and its pointer.
  public func apply(
    to document: inout JSONValue, maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) throws(JSONPatchError) {
    var log: [UndoStep] = []
    for (index, operation) in operations.enumerated() {
      do {
        try Self.apply(operation, to: &document, maximumDepth: maximumDepth, log: &log)
      } catch {
        while let step = log.popLast() { document.undo(step) }
        throw error.error(operationIndex: index)
      }
    }
  }

  /// The document `document` becomes under this patch; `document` itself is unchanged.
  public func applied(
    to document: JSONValue, maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) throws(JSONPatchError) -> JSONValue {
    var result = document
    try apply(to: &result, maximumDepth: maximumDepth)
    return result
  }

  /// A failure of one operation, before the operation's index is known.
  struct OperationFailure: Error {
    var pointer: JSONPointer
    var reason: JSONPatchError.Reason

    func error(operationIndex: Int) -> JSONPatchError {
      JSONPatchError(operationIndex: operationIndex, pointer: pointer, reason: reason)
    }
  }

  /// Applies one operation, appending the inverses of its edits to `log`.
  static func apply(
    _ operation: PatchOperation, to document: inout JSONValue, maximumDepth: Int,
    log: inout [UndoStep]
  ) throws(OperationFailure) {
    func at<Result>(
      _ pointer: JSONPointer, _ body: () throws(EditFailure) -> Result
    )
      throws(OperationFailure) -> Result
    {
      do { return try body() } catch {
        throw OperationFailure(pointer: pointer, reason: error.reason)
      }
    }
    func checkDepth(_ path: JSONPointer, _ height: () -> Int) throws(OperationFailure) {
      if path.tokens.count > maximumDepth || path.tokens.count + height() > maximumDepth {
        throw OperationFailure(pointer: path, reason: .tooDeep(limit: maximumDepth))
      }
    }

    switch operation {
    case .add(let path, let value):
      try checkDepth(path) { value.depth }
      log.append(
        try at(path) { () throws(EditFailure) in try document.add(value, at: path.tokens[...]) })
    case .remove(let path):
      log.append(
        try at(path) { () throws(EditFailure) in try document.remove(at: path.tokens[...]).undo })
    case .replace(let path, let value):
      try checkDepth(path) { value.depth }
      log.append(
        try at(path) { () throws(EditFailure) in
          try document.replace(with: value, at: path.tokens[...])
        })
    case .move(let from, let path):
      if from == path {
        guard document[pointer: from] != nil else {
          throw OperationFailure(pointer: from, reason: notFound(from, in: document))
        }
        return
      }
      if from.isPrefix(of: path) {
        throw OperationFailure(pointer: from, reason: .moveIntoDescendant)
      }
      let removed = try at(from) { () throws(EditFailure) in
        try document.remove(at: from.tokens[...])
      }
      log.append(removed.undo)
      if path.tokens.count > from.tokens.count {
        try checkDepth(path) { removed.value.depth }
      }
      log.append(
        try at(path) { () throws(EditFailure) in
          try document.add(removed.value, at: path.tokens[...])
        })
    case .copy(let from, let path):
      guard let value = document[pointer: from] else {
        throw OperationFailure(pointer: from, reason: notFound(from, in: document))
      }
      if path.tokens.count > from.tokens.count {
        try checkDepth(path) { value.depth }
      }
      log.append(
        try at(path) { () throws(EditFailure) in try document.add(value, at: path.tokens[...]) })
    case .test(let path, let value):
      guard let actual = document[pointer: path] else {
        throw OperationFailure(pointer: path, reason: notFound(path, in: document))
      }
      guard actual.isEquivalent(to: value) else {
        throw OperationFailure(pointer: path, reason: .testFailed)
      }
    }
  }

  /// Why `pointer` resolves to nothing in `document`: the first token that fails and how.
  static func notFound(_ pointer: JSONPointer, in document: JSONValue) -> JSONPatchError.Reason {
    switch document.lookup(pointer.tokens[...]) {
    case .failure(let failure): failure.reason
    case .success: .notFound(tokenIndex: pointer.tokens.count - 1)
    }
  }
}

extension JSONValue {
  /// Applies `patch` to this document, in place and all or nothing (see
  /// ``JSONPatch/apply(to:maximumDepth:)``).
  public mutating func apply(_ patch: JSONPatch) throws(JSONPatchError) {
    try patch.apply(to: &self)
  }
}
