/// The code of an `ERROR` reply: why the leader refused a request or a follower.
///
/// A value type over the code's wire text, so that a follower can tell the codes this version
/// knows apart (``version``, ``fingerprint``, ``schema``, ``malformed``, ``unknownCommand``,
/// ``superseded``, ``unauthorized``, ``noLease``) and still carry one a newer leader sends.
///
/// ```swift
/// if case .error(.superseded, let message) = reply { print("taken over: \(message)") }
/// ```
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The code as the wire carries it.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The follower speaks another protocol version than the leader (answers `HELLO`).
  public static let version = ErrorCode(rawValue: "version")
  /// The follower's schema fingerprint differs from the leader's (answers `HELLO`).
  public static let fingerprint = ErrorCode(rawValue: "fingerprint")
  /// The follower's schema cannot share the leader's state by the rules of
  /// <doc:SchemaEvolution> (answers `HELLO`); the message names each field path and the two
  /// shapes.
  public static let schema = ErrorCode(rawValue: "schema")
  /// The request's frames do not match its table.
  public static let malformed = ErrorCode(rawValue: "malformed")
  /// The request's command is not one of the protocol's.
  public static let unknownCommand = ErrorCode(rawValue: "unknown-command")
  /// Another process took the client id over (answers `HELLO` and dispatches).
  public static let superseded = ErrorCode(rawValue: "superseded")
  /// The connection's key may not make the request: it is not in the leader's key store any
  /// more, its role does not allow it (`STATS` needs `admin`), or the client id belongs to
  /// another key.
  public static let unauthorized = ErrorCode(rawValue: "unauthorized")
  /// The leader holds no lease it could hand over (answers `STEP-DOWN`): it runs without
  /// standby leaders, or does not hold the lease right now.
  public static let noLease = ErrorCode(rawValue: "no-lease")

  /// Whether a follower refused with this code must stop rather than try again: the leader
  /// will refuse it again whatever it resends.
  public var isFinal: Bool {
    self == .version || self == .fingerprint || self == .schema || self == .superseded
      || self == .unauthorized
  }

  public var description: String { rawValue }
}
