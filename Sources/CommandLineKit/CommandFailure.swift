/// A command's failure with a specific exit status: the message is printed after the command's
/// name, and the process exits with `status`.
///
/// ```swift
/// throw CommandFailure(.unavailable, "no reply from the leader: is it running?")
/// ```
public struct CommandFailure: Error, Equatable, CustomStringConvertible {
  /// The exit status the process ends with.
  public var status: ExitStatus
  /// What went wrong, in words that say what to do next.
  public var message: String

  /// A failure that ends the process with `status` after printing `message`.
  public init(_ status: ExitStatus, _ message: String) {
    self.status = status
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
