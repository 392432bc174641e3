/// Encodes `Encodable` values as canonical ``JSONValue`` trees: the documents Tandem diffs,
/// patches and sends.
///
/// Every `==` value must encode to the same document (see <doc:TypedDiffs>). The encoder
/// makes the standard library's shapes canonical:
/// - integers stay exact (`int`, or `uint` above `Int64.max`); `Float` widens to `Double`;
///   `-0.0` becomes `0`; NaN and infinities throw ``StateEncodingError``;
/// - object members are sorted by the UTF-8 bytes of their keys; optionals that synthesized
///   `Codable` skips with `encodeIfPresent` are absent members;
/// - `Data` is a base64 string (standard alphabet, padded);
/// - a `Set` is an array sorted in a fixed total order of its elements' JSON;
/// - a `Dictionary` with `String`, `Int` or `CodingKeyRepresentable` keys is an object; with
///   other keys, the flat `[key, value, ...]` array that `Dictionary` decodes, sorted by key;
/// - every other type (including `Date`, a double of seconds since 2001-01-01) encodes itself.
///
/// ```swift
/// struct Point: Codable { var x: Int; var y: Int }
/// var encoder = StateEncoder()
/// let json = try encoder.encode(Point(x: 1, y: 2))  // .object(["x": 1, "y": 2])
/// ```
public struct StateEncoder: Sendable {
  /// The nodes encoded so far by this encoder.
  public private(set) var counters = StatePatchCounters()

  /// An encoder with zero counters.
  public init() {}

  /// The canonical JSON of `value`.
  public mutating func encode<T: Encodable>(_ value: T) throws(StateEncodingError) -> JSONValue {
    let session = EncodingSession(deep: true)
    defer { counters.nodesEncoded += session.nodesEncoded }
    do {
      return try session.encode(value, at: [])
    } catch let error as StateEncodingError {
      throw error
    } catch {
      throw StateEncodingError(.encodeFailed(error), at: JSONPointer(tokens: []))
    }
  }

  /// The canonical JSON of `value` when it means what Foundation's `JSONEncoder` (default
  /// strategies) writes for it; `nil` when `value` holds a `URL` or a `Decimal`.
  ///
  /// `JSONEncoder` writes a `URL` as a string and a `Decimal` as a number, while their own
  /// `Codable` conformances, which this encoder follows, write objects. Everything else means
  /// the same under both (a `Date` is a double, `Data` a base64 string, members sorted here).
  /// Use it for JSON that programs read with `JSONDecoder`, and encode with `JSONEncoder` when
  /// it returns `nil`:
  ///
  /// ```swift
  /// var encoder = StateEncoder()
  /// let bytes = try encoder.encodeMatchingJSONEncoder(action)?.canonicalBytes()
  ///   ?? Array(JSONEncoder().encode(action))
  /// ```
  ///
  /// - Throws: ``StateEncodingError`` as ``encode(_:)`` does.
  package mutating func encodeMatchingJSONEncoder<T: Encodable>(
    _ value: T
  ) throws(StateEncodingError) -> JSONValue? {
    let session = EncodingSession(deep: true, refusesJSONCoderForms: true)
    defer { counters.nodesEncoded += session.nodesEncoded }
    do {
      let json = try session.encode(value, at: [])
      return session.metJSONCoderForm ? nil : json
    } catch {
      if session.metJSONCoderForm { return nil }
      if let error = error as? StateEncodingError { throw error }
      throw StateEncodingError(.encodeFailed(error), at: JSONPointer(tokens: []))
    }
  }
}
