/// A mistake in how a command was called; printed with the command's usage, exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What was wrong, in words that say what to do instead.
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// The process exit statuses the CLI uses (sysexits.h where one fits).
public enum ExitStatus: Int32, Sendable {
  case success = 0
  case failure = 1
  case usage = 64
  /// The input was understood but refused, e.g. a rejected action (EX_DATAERR).
  case dataError = 65
  /// What was asked for does not exist, e.g. no value at a JSON pointer (EX_NOINPUT).
  case notFound = 66
  case unavailable = 69
  /// The output could not be written, e.g. to a full disk (EX_IOERR).
  case ioError = 74
  /// The service answered but cannot do its work for now, e.g. a leader whose journal refuses
  /// commits (EX_TEMPFAIL).
  case temporaryFailure = 75
  /// The other side spoke but not as expected: a protocol or schema mismatch (EX_PROTOCOL).
  case protocolError = 76
  /// The other side refused this side's credentials: a CURVE key it does not accept, or a
  /// request the key's role does not allow (EX_NOPERM).
  case noPermission = 77
}
