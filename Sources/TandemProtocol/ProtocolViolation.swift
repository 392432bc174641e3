/// A message that breaks the wire protocol: unknown command, missing or malformed frame.
public struct ProtocolViolation: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, naming the command and the frame.
  public var description: String
  /// The `ERROR` code that answers it: ``ErrorCode/unknownCommand`` for a command the protocol
  /// does not have, else ``ErrorCode/malformed``.
  public var code: ErrorCode

  package init(_ description: String, code: ErrorCode = .malformed) {
    self.description = description
    self.code = code
  }
}
