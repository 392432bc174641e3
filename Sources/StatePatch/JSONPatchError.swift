/// Why a JSON Patch could not be applied or read; names the failing operation and its pointer.
///
/// When ``JSONPatch/apply(to:maximumDepth:)`` throws, the document is exactly as it was before.
public struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Hashable {
    /// The pointer (or, with `tokenIndex`, its prefix up to that token) refers to nothing.
    case notFound(tokenIndex: Int)
    /// A token of the pointer tries to step into a value that is not an array or object.
    case notAContainer(tokenIndex: Int)
    /// An array token that is not `-`, `0` or a digit string without a leading zero, or that
    /// is beyond the array (`-` and the count itself are allowed only where `add` inserts).
    case invalidArrayIndex(tokenIndex: Int)
    /// `remove` or `move` of the whole document.
    case cannotRemoveRoot
    /// `move` into one of the moved value's own descendants.
    case moveIntoDescendant
    /// A `test` whose value differs from the document's.
    case testFailed
    /// The operation would make the document nest deeper than the allowed depth.
    case tooDeep(limit: Int)
    /// The patch's JSON is not an array of operation objects.
    case malformed(String)
    /// A pointer in the patch's JSON is not valid RFC 6901 text.
    case invalidPointer(JSONPointerError)
  }

  /// The index of the failing operation in the patch.
  public var operationIndex: Int
  /// The failing pointer: the operation's `path`, or its `from` when that is what failed.
  public var pointer: JSONPointer
  /// What went wrong.
  public var reason: Reason

  /// An error for operation `operationIndex` at `pointer`.
  public init(operationIndex: Int, pointer: JSONPointer, reason: Reason) {
    self.operationIndex = operationIndex
    self.pointer = pointer
    self.reason = reason
  }

  public var description: String {
    let place = "JSON Patch operation \(operationIndex) at \"\(pointer)\""
    switch reason {
    case .notFound(let token):
      return "\(place): no value at \"\(prefix(token))\""
    case .notAContainer(let token):
      return "\(place): \"\(prefix(token - 1))\" is neither an array nor an object"
    case .invalidArrayIndex(let token):
      return "\(place): \"\(pointer.tokens[token])\" is not a valid index of the array"
        + " at \"\(prefix(token - 1))\""
    case .cannotRemoveRoot: return "\(place): cannot remove the whole document"
    case .moveIntoDescendant: return "\(place): cannot move a value into itself"
    case .testFailed: return "\(place): test failed, the value differs"
    case .tooDeep(let limit): return "\(place): the document would nest deeper than \(limit)"
    case .malformed(let text): return "\(place): \(text)"
    case .invalidPointer(let error): return "\(place): \(error)"
    }
  }

  /// The pointer's first tokens, up to and including `tokenIndex`.
  private func prefix(_ tokenIndex: Int) -> JSONPointer {
    JSONPointer(tokens: Array(pointer.tokens.prefix(max(tokenIndex + 1, 0))))
  }
}
