/// A failed libpq call or statement: PostgreSQL's SQLSTATE (when the server sent one), its
/// message, and what was being done.
///
/// ```swift
/// catch let error as PostgresError where error.sqlState == "40P01" {  // deadlock_detected
///   print(error)  // "UPDATE tandem_lease ...: deadlock detected (SQLSTATE 40P01)"
/// }
/// ```
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The five-character SQLSTATE of a server error (`23505` unique violation, `40001`
  /// serialization failure, `57P01` administrator shutdown...), or nil for a failure on the
  /// client's side (no connection, a lost connection, a timeout).
  public var sqlState: String?
  /// PostgreSQL's (or libpq's) message, on one line.
  public var message: String
  /// What failed: the statement's first words, or the libpq call with the redacted connection
  /// string. Never a password.
  public var call: String

  /// An error with the given SQLSTATE, message and call.
  public init(sqlState: String?, message: String, call: String) {
    self.sqlState = sqlState
    self.message = message
    self.call = call
  }

  /// Whether the connection to the server is gone (SQLSTATE class 08, or no SQLSTATE after
  /// the connection went bad), so that reconnecting, not retrying the statement, is next.
  public var isConnectionFailure: Bool {
    guard let sqlState else { return true }
    return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
  }

  /// The call, the message and the SQLSTATE, if any.
  public var description: String {
    let state = sqlState.map { " (SQLSTATE \($0))" } ?? ""
    return "\(call): \(message)\(state)"
  }
}
