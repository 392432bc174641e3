/// An RFC 6901 JSON Pointer: a path of reference tokens from the root of a document.
public struct JSONPointer: Sendable, Hashable {
  /// The unescaped reference tokens; empty for the whole document.
  public var tokens: [String]

  public init(tokens: [String]) {
    self.tokens = tokens
  }
}
