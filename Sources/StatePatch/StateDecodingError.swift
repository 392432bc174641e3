/// A canonical JSON document could not be turned into the typed value asked for.
public struct StateDecodingError: Error, CustomStringConvertible {
  /// Why decoding failed.
  public enum Reason: Sendable {
    /// The JSON value at ``StateDecodingError/path`` has another kind than the type needs.
    case typeMismatch(expected: String, found: JSONValue)
    /// A number does not fit the integer or floating-point type asked for.
    case numberOutOfRange(JSONValue, type: String)
    /// An object has no member that the type requires.
    case keyNotFound(String)
    /// An array ran out of elements before the type finished decoding.
    case endOfArray
    /// A string that must be base64 (for `Data`) is not.
    case invalidBase64
    /// The type's own `init(from:)` threw this error.
    case decodeFailed(any Error)
  }

  /// Why decoding failed.
  public var reason: Reason
  /// Where in the document the failing value sits.
  public var path: JSONPointer

  /// An error for `reason` at `path`.
  public init(_ reason: Reason, at path: JSONPointer) {
    self.reason = reason
    self.path = path
  }

  public var description: String {
    let place = "/" + path.tokens.joined(separator: "/")
    switch reason {
    case .typeMismatch(let expected, let found):
      return "expected \(expected) at \(place), found \(found)"
    case .numberOutOfRange(let value, let type):
      return "\(value) at \(place) does not fit \(type)"
    case .keyNotFound(let key):
      return "no member '\(key)' in the object at \(place)"
    case .endOfArray:
      return "the array at \(place) has too few elements"
    case .invalidBase64:
      return "the string at \(place) is not base64"
    case .decodeFailed(let error):
      return "decoding failed at \(place): \(error)"
    }
  }
}
