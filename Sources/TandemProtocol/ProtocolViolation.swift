/// A message that breaks the wire protocol: unknown command, missing or malformed frame.
public struct ProtocolViolation: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, naming the command and the frame.
  public var description: String

  package init(_ description: String) {
    self.description = description
  }
}
