/// Why the leader refused a forwarded action. A rejected action changes nothing, and its number
/// is used up: the follower does not send it again.
public struct Rejection: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  /// The reason, as a stable code on the wire.
  public enum Code: String, Sendable, Equatable, Codable {
    /// No action type is registered under the tag.
    case unknownTag = "unknown-tag"
    /// The payload did not decode as the tag's action type.
    case undecodable = "undecodable"
    /// The application's validation or a middleware refused the action.
    case refused = "refused"
    /// The number is not the client's next one; the follower realigns (asks for the leader's
    /// last number with `HELLO`) and resends from its oldest unacknowledged action. Unlike the
    /// others, this does not use the number up.
    case outOfOrder = "out-of-order"
    /// The action could not be made durable; nothing of it was applied or published.
    case commitFailed = "commit-failed"
    /// The sender's key may not dispatch the action: its role is `read`, or the tag is not in
    /// its allow-list, or the key left the leader's key store.
    case unauthorized = "unauthorized"
  }

  public var code: Code
  /// A human-readable explanation.
  public var message: String

  public init(code: Code, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code.rawValue): \(message)" }

  /// The most bytes of UTF-8 a leader keeps and sends of a rejection's message.
  public static let maximumMessageBytes = 1024

  /// This rejection with its message cut to ``maximumMessageBytes`` (at a character, ending
  /// with "…"): a decoding error can quote a payload's keys, and the ledger keeps a client's
  /// latest rejections.
  package var bounded: Rejection {
    Rejection(code: code, message: message.shortened(toUTF8Bytes: Self.maximumMessageBytes))
  }
}
