/// Decodes typed values from canonical ``JSONValue`` trees, reading what ``StateEncoder`` writes
/// (`Data` from base64, sets and dictionaries in any order).
///
/// Its containers throw ``StateDecodingError`` (with the JSON Pointer of the failing value), not
/// Foundation's `DecodingError`; a custom `init(from:)` that catches `DecodingError` to fall back
/// to a default will not see these.
///
/// ```swift
/// var decoder = StateDecoder()
/// let point = try decoder.decode(Point.self, from: ["x": 1, "y": 2])
/// ```
public struct StateDecoder: Sendable {
  /// The nodes decoded so far by this decoder.
  public private(set) var counters = StatePatchCounters()

  /// A decoder with zero counters.
  public init() {}

  /// The value of `type` that `document` holds.
  public mutating func decode<T: Decodable>(
    _ type: T.Type, from document: JSONValue
  )
    throws(StateDecodingError) -> T
  {
    let session = DecodingSession()
    defer { counters.nodesDecoded += session.nodesDecoded }
    do {
      return try session.decode(type, from: document, at: [])
    } catch let error as StateDecodingError {
      throw error
    } catch {
      throw StateDecodingError(.decodeFailed(error), at: .root)
    }
  }

  /// The value of `type` that `document` holds, read as Foundation's `JSONDecoder` (default
  /// strategies) reads it; `nil` when decoding meets a `URL` or a `Decimal`.
  ///
  /// `JSONDecoder` reads a `URL` from a string and a `Decimal` from a number, while their own
  /// `Codable` conformances, which this decoder follows, read objects. Use it for JSON written
  /// for `JSONDecoder`, and decode with `JSONDecoder` when it returns `nil`.
  ///
  /// - Throws: ``StateDecodingError`` as ``decode(_:from:)`` does.
  package mutating func decodeMatchingJSONDecoder<T: Decodable>(
    _ type: T.Type, from document: JSONValue
  ) throws(StateDecodingError) -> T? {
    let session = DecodingSession(refusesJSONCoderForms: true)
    defer { counters.nodesDecoded += session.nodesDecoded }
    do {
      let value = try session.decode(type, from: document, at: [])
      return session.metJSONCoderForm ? nil : value
    } catch {
      if session.metJSONCoderForm { return nil }
      if let error = error as? StateDecodingError { throw error }
      throw StateDecodingError(.decodeFailed(error), at: .root)
    }
  }
}
