/// The `account` of a browser action: `""` (the service's own token) unless set. It is left
/// out of an action's JSON when `""`, and a payload without it decodes as `""`, so the
/// payloads of a service without sign-in read as they did before accounts existed (scripts and
/// other languages posting `{"owner": ..., "name": ...}` keep working).
@propertyWrapper
public struct AccountField: Codable, Hashable, Sendable {
  /// The account: a GitHub login in lower case, or `""`.
  public var wrappedValue: String

  /// An account field holding `wrappedValue`.
  public init(wrappedValue: String = "") {
    self.wrappedValue = wrappedValue
  }

  /// Decodes the account from a single string.
  public init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the account as a single string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension KeyedDecodingContainer {
  /// An absent `account` is `""`.
  public func decode(_ type: AccountField.Type, forKey key: Key) throws -> AccountField {
    AccountField(wrappedValue: try decodeIfPresent(String.self, forKey: key) ?? "")
  }
}

extension KeyedEncodingContainer {
  /// An `account` of `""` is left out.
  public mutating func encode(_ value: AccountField, forKey key: Key) throws {
    if !value.wrappedValue.isEmpty { try encode(value.wrappedValue, forKey: key) }
  }
}
