/// How long a send or receive may wait for the socket to become ready.
///
/// ```swift
/// try socket.send(bytes)                                   // .blocking
/// if try !socket.send(bytes, wait: .nonBlocking) { ... }   // queue full: not sent
/// let reply = try socket.receive(wait: .timeout(.milliseconds(250)))  // nil on timeout
/// ```
public enum Wait: Sendable, Hashable {
  /// Wait until done, or for the socket's ``SocketOption/sendTimeout`` or
  /// ``SocketOption/receiveTimeout`` when one is set (by default, forever).
  case blocking
  /// Do not wait (`ZMQ_DONTWAIT`): fail at once when the socket is not ready.
  case nonBlocking
  /// Wait at most this long (polling the socket, then a non-blocking call).
  case timeout(Duration)
}
