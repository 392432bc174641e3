/// A failed pointer step while editing; the applier adds the operation index and pointer.
struct EditFailure: Error {
  var reason: JSONPatchError.Reason
}

/// A single edit's inverse, so that a failed patch can put back what earlier operations changed.
enum UndoStep {
  case replace(tokens: ArraySlice<String>, old: JSONValue)
  case removeMember(parent: ArraySlice<String>, key: String)
  case setMember(parent: ArraySlice<String>, key: String, value: JSONValue)
  case removeElement(parent: ArraySlice<String>, index: Int)
  case insertElement(parent: ArraySlice<String>, index: Int, value: JSONValue)
}

extension JSONValue {
  /// Takes the elements out of an array value, leaving `.null` so that the caller owns them
  /// uniquely and can change them without a copy; nil (and no change) for other values.
  mutating func takeArray() -> [JSONValue]? {
    var taken = JSONValue.null
    swap(&taken, &self)
    if case .array(let elements) = taken {
      taken = .null
      return elements
    }
    self = taken
    return nil
  }

  /// Takes the object out of an object value, leaving `.null` (see ``takeArray()``).
  mutating func takeObject() -> JSONObject? {
    var taken = JSONValue.null
    swap(&taken, &self)
    if case .object(let object) = taken {
      taken = .null
      return object
    }
    self = taken
    return nil
  }

  /// Calls `body` with the value at `tokens`, in place: each container on the path is taken out
  /// of its parent while `body` runs, so a uniquely owned document is edited without copies.
  mutating func modify<Result>(
    at tokens: ArraySlice<String>, _ body: (inout JSONValue) throws(EditFailure) -> Result
  ) throws(EditFailure) -> Result {
    guard let token = tokens.first else { return try body(&self) }
    let tokenIndex = tokens.startIndex
    let rest = tokens.dropFirst()
    if var object = takeObject() {
      defer { self = .object(object) }
      let (index, found) = object.position(of: token)
      guard found else { throw EditFailure(reason: .notFound(tokenIndex: tokenIndex)) }
      return try object.modifyValue(at: index) { value throws(EditFailure) in
        try value.modify(at: rest, body)
      }
    }
    if var array = takeArray() {
      defer { self = .array(array) }
      guard case .index(let index)? = JSONPointer.arrayIndex(token), index < array.count else {
        throw EditFailure(reason: .invalidArrayIndex(tokenIndex: tokenIndex))
      }
      return try array[index].modify(at: rest, body)
    }
    throw EditFailure(reason: .notAContainer(tokenIndex: tokenIndex))
  }

  /// Adds `value` at `tokens` as RFC 6902 `add` does; returns the edit's inverse.
  mutating func add(
    _ value: JSONValue, at tokens: ArraySlice<String>
  ) throws(EditFailure)
    -> UndoStep
  {
    guard let key = tokens.last else {
      let old = self
      self = value
      return .replace(tokens: tokens, old: old)
    }
    let parent = tokens.dropLast()
    let tokenIndex = tokens.endIndex - 1
    return try modify(at: parent) { container throws(EditFailure) in
      if var object = container.takeObject() {
        defer { container = .object(object) }
        if let old = object.updateValue(value, forKey: key) {
          return .setMember(parent: parent, key: key, value: old)
        }
        return .removeMember(parent: parent, key: key)
      }
      if var array = container.takeArray() {
        defer { container = .array(array) }
        let index: Int
        switch JSONPointer.arrayIndex(key) {
        case .end?: index = array.count
        case .index(let given)? where given <= array.count: index = given
        default: throw EditFailure(reason: .invalidArrayIndex(tokenIndex: tokenIndex))
        }
        array.insert(value, at: index)
        return .removeElement(parent: parent, index: index)
      }
      throw EditFailure(reason: .notAContainer(tokenIndex: tokenIndex))
    }
  }

  /// Removes the value at `tokens` as RFC 6902 `remove` does; returns it and the inverse.
  mutating func remove(
    at tokens: ArraySlice<String>
  ) throws(EditFailure) -> (
    value: JSONValue, undo: UndoStep
  ) {
    guard let key = tokens.last else { throw EditFailure(reason: .cannotRemoveRoot) }
    let parent = tokens.dropLast()
    let tokenIndex = tokens.endIndex - 1
    return try modify(at: parent) { container throws(EditFailure) in
      if var object = container.takeObject() {
        defer { container = .object(object) }
        guard let old = object.removeValue(forKey: key) else {
          throw EditFailure(reason: .notFound(tokenIndex: tokenIndex))
        }
        return (old, .setMember(parent: parent, key: key, value: old))
      }
      if var array = container.takeArray() {
        defer { container = .array(array) }
        guard case .index(let index)? = JSONPointer.arrayIndex(key), index < array.count else {
          throw EditFailure(reason: .invalidArrayIndex(tokenIndex: tokenIndex))
        }
        let old = array.remove(at: index)
        return (old, .insertElement(parent: parent, index: index, value: old))
      }
      throw EditFailure(reason: .notAContainer(tokenIndex: tokenIndex))
    }
  }

  /// Replaces the existing value at `tokens`; returns the edit's inverse.
  mutating func replace(
    with value: JSONValue, at tokens: ArraySlice<String>
  ) throws(EditFailure)
    -> UndoStep
  {
    try modify(at: tokens) { target throws(EditFailure) in
      let old = target
      target = value
      return .replace(tokens: tokens, old: old)
    }
  }

  /// Puts back what `step` records; the step came from an edit of this very document.
  mutating func undo(_ step: UndoStep) {
    do {
      switch step {
      case .replace(let tokens, let old):
        _ = try replace(with: old, at: tokens)
      case .removeMember(let parent, let key):
        try modify(at: parent) { container throws(EditFailure) in
          guard var object = container.takeObject() else { throw EditFailure(reason: .testFailed) }
          object.removeValue(forKey: key)
          container = .object(object)
        }
      case .setMember(let parent, let key, let value):
        try modify(at: parent) { container throws(EditFailure) in
          guard var object = container.takeObject() else { throw EditFailure(reason: .testFailed) }
          object.updateValue(value, forKey: key)
          container = .object(object)
        }
      case .removeElement(let parent, let index):
        try modify(at: parent) { container throws(EditFailure) in
          guard var array = container.takeArray() else { throw EditFailure(reason: .testFailed) }
          array.remove(at: index)
          container = .array(array)
        }
      case .insertElement(let parent, let index, let value):
        try modify(at: parent) { container throws(EditFailure) in
          guard var array = container.takeArray() else { throw EditFailure(reason: .testFailed) }
          array.insert(value, at: index)
          container = .array(array)
        }
      }
    } catch {
      preconditionFailure("JSONPatch: undoing an edit failed (\(error.reason)); this is a bug")
    }
  }
}
