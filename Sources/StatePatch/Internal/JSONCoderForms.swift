#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The types whose JSON Foundation's `JSONEncoder` and `JSONDecoder` write and read in another
/// form than their own `Codable` conformance (which ``StateEncoder`` and ``StateDecoder``
/// follow): a `URL` is a string there and an object here, a `Decimal` a number there and an
/// object of its parts here.
///
/// The other types the Foundation coders treat specially agree with the state coders under
/// their default strategies: `Date` encodes itself (a double), `Data` is a base64 string, and
/// `String`-keyed dictionaries are objects.
enum JSONCoderForms {
  /// Whether values of `type` have another JSON form under Foundation's coders.
  static func differ<T>(for type: T.Type) -> Bool {
    type == URL.self || type == Decimal.self
  }

  /// The error a run that refuses these types stops with.
  struct Refused: Error, CustomStringConvertible {
    var type: Any.Type
    var description: String {
      "\(type) has another JSON form under Foundation's JSONEncoder and JSONDecoder"
    }
  }
}
