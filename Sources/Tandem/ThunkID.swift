/// The identity of a running thunk, for cancelling it.
///
/// Any string: `"search"`, `"download.\(fileID)"`. Create one with a string literal.
public struct ThunkID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The identity's text.
  public let rawValue: String

  /// Creates an identity from its text.
  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates an identity from a string literal.
  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  /// The identity's text.
  public var description: String { rawValue }
}
