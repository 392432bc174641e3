/// A mistake in how a command was called; printed with the command's usage, exit status 64.
struct UsageError: Error, CustomStringConvertible {
  /// What was wrong, in words that say what to do instead.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// The process exit statuses the CLI uses (sysexits.h where one fits).
enum ExitStatus: Int32 {
  case success = 0
  case failure = 1
  case usage = 64
  case unavailable = 69
}
