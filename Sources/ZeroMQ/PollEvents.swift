import CZeroMQ

/// What a poll waits for or reports on a socket: readable, writable, error.
public struct PollEvents: OptionSet, Sendable, Hashable {
  /// The libzmq `short` bit set.
  public var rawValue: Int16

  /// Events from their libzmq bits.
  public init(rawValue: Int16) { self.rawValue = rawValue }

  /// `ZMQ_POLLIN`: at least one message can be received without blocking.
  public static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
  /// `ZMQ_POLLOUT`: at least one message can be sent without blocking.
  public static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
  /// `ZMQ_POLLERR`: an error condition (reported for plain file descriptors only).
  public static let error = PollEvents(rawValue: Int16(ZMQ_POLLERR))
}
