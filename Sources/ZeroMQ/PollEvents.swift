import CZeroMQ

/// What a poll waits for or reports on a socket: readable, writable, error.
public struct PollEvents: OptionSet, Sendable, Hashable {
  /// The libzmq `short` bit set.
  public var rawValue: Int16

  /// Events from their libzmq bits.
  @inlinable public init(rawValue: Int16) { self.rawValue = rawValue }

  /// `ZMQ_POLLIN`: at least one message can be received without blocking.
  @inlinable public static var readable: PollEvents { PollEvents(rawValue: Int16(ZMQ_POLLIN)) }
  /// `ZMQ_POLLOUT`: at least one message can be sent without blocking.
  @inlinable public static var writable: PollEvents { PollEvents(rawValue: Int16(ZMQ_POLLOUT)) }
  /// `ZMQ_POLLERR`: an error condition (reported for plain file descriptors only).
  @inlinable public static var error: PollEvents { PollEvents(rawValue: Int16(ZMQ_POLLERR)) }
}
