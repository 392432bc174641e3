/// A mistake in how a command was called; printed with the command's usage, exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What was wrong, in words that say what to do instead.
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// The process exit statuses the CLI uses (sysexits.h where one fits).
public enum ExitStatus: Int32 {
  case success = 0
  case failure = 1
  case usage = 64
  case unavailable = 69
}
