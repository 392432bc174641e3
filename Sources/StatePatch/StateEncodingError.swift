/// A typed value could not be turned into canonical JSON.
///
/// The ``path`` names where in the value the problem is, as a JSON Pointer into the document
/// that was being built.
public struct StateEncodingError: Error, CustomStringConvertible {
  /// Why encoding failed.
  public enum Reason: Sendable {
    /// A floating-point value was NaN or infinite; JSON has no spelling for it.
    case nonFiniteNumber(Double)
    /// The value's own `encode(to:)` threw this error.
    case encodeFailed(any Error)
  }

  /// Why encoding failed.
  public var reason: Reason
  /// Where the failing value sits in the document.
  public var path: JSONPointer

  /// An error for `reason` at `path`.
  public init(_ reason: Reason, at path: JSONPointer) {
    self.reason = reason
    self.path = path
  }

  public var description: String {
    let place = "/" + path.tokens.joined(separator: "/")
    switch reason {
    case .nonFiniteNumber(let value):
      return "cannot encode \(value) at \(place): JSON has no NaN or infinity"
    case .encodeFailed(let error):
      return "encoding failed at \(place): \(error)"
    }
  }
}
