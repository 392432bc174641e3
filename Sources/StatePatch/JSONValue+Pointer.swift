extension JSONValue {
  /// The value `pointer` refers to, or nil when it refers to nothing.
  ///
  /// ```swift
  /// let document: JSONValue = ["a": [10, 20]]
  /// document[pointer: "/a/1"]  // .int(20)
  /// document[pointer: "/a/-"]  // nil: "-" names no element
  /// ```
  public subscript(pointer pointer: JSONPointer) -> JSONValue? {
    try? lookup(pointer.tokens[...]).get()
  }

  /// The value at `tokens`, or which token fails and why.
  func lookup(_ tokens: ArraySlice<String>) -> Result<JSONValue, EditFailure> {
    var current = self
    for tokenIndex in tokens.indices {
      let token = tokens[tokenIndex]
      switch current {
      case .object(let object):
        guard let value = object[token] else {
          return .failure(EditFailure(reason: .notFound(tokenIndex: tokenIndex)))
        }
        current = value
      case .array(let array):
        guard case .index(let index)? = JSONPointer.arrayIndex(token), index < array.count else {
          return .failure(EditFailure(reason: .invalidArrayIndex(tokenIndex: tokenIndex)))
        }
        current = array[index]
      default:
        return .failure(EditFailure(reason: .notAContainer(tokenIndex: tokenIndex)))
      }
    }
    return .success(current)
  }

  /// How many arrays and objects nest at the deepest point: 0 for a scalar, 1 for `[1]` or `[]`.
  ///
  /// Computed without recursion, so it is safe on any document.
  public var depth: Int {
    var deepest = 0
    var pending: [(value: JSONValue, depth: Int)] = [(self, 0)]
    while let (value, level) = pending.popLast() {
      switch value {
      case .array(let elements):
        deepest = max(deepest, level + 1)
        for element in elements { if element.isContainer { pending.append((element, level + 1)) } }
      case .object(let object):
        deepest = max(deepest, level + 1)
        for member in object.members where member.value.isContainer {
          pending.append((member.value, level + 1))
        }
      default:
        break
      }
    }
    return deepest
  }

  /// Whether this is an array or an object.
  var isContainer: Bool {
    switch self {
    case .array, .object: true
    default: false
    }
  }
}
