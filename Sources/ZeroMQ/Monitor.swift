import CZeroMQ

/// Delivers a socket's connection events (`zmq_socket_monitor`): connected, accepted,
/// disconnected, handshake succeeded or failed...
///
/// libzmq publishes the events on an `inproc` PAIR socket; the monitor owns the receiving end.
/// Read events with ``next(wait:)``, or register ``socket`` with a ``Poller`` or an
/// ``IOLoop`` and decode what arrives with ``next(wait:)`` in the handler.
///
/// ```swift
/// let monitor = try router.monitor([.accepted, .handshakeSucceeded, .handshakeFailed])
/// try router.bind(.tcp(host: "127.0.0.1"))
/// while let event = try monitor.next(wait: .timeout(.seconds(5))) {
///   print(event.kind, event.endpoint)
/// }
/// ```
public final class Monitor {
  /// The PAIR socket the events arrive on.
  public let socket: Socket
  private weak var monitored: Socket?

  init(monitoring target: Socket, events: MonitorEvent.Kind) throws(ZMQError) {
    let endpoint = Endpoint.inproc("zeromq-swift.monitor.\(Monitor.nextNumber())")
    let targetHandle = target.handle
    _ = try zmqCall("zmq_socket_monitor(\(endpoint))") {
      zmq_socket_monitor(targetHandle, endpoint.description, Int32(events.rawValue))
    }
    socket = try Socket(target.context, .pair)
    try socket.set(.linger, .zero)
    try socket.connect(endpoint)
    monitored = target
  }

  deinit {
    stop()
  }

  /// Stops monitoring (`zmq_socket_monitor` with no endpoint) and closes ``socket``.
  public func stop() {
    if let monitored, !monitored.isClosed {
      zmq_socket_monitor(monitored.handle, nil, 0)
    }
    monitored = nil
    socket.close()
  }

  /// The next event, or `nil` when none arrived in time.
  public func next(wait: Wait = .blocking) throws(ZMQError) -> MonitorEvent? {
    guard let frames = try socket.receiveParts(wait: wait) else { return nil }
    guard let event = MonitorEvent(frames: frames) else {
      throw ZMQError(code: .invalidArgument, call: "zmq_socket_monitor (malformed event)")
    }
    return event
  }

  /// The next event of one of `kinds`, skipping others, or `nil` when none arrived in time.
  public func next(
    _ kinds: MonitorEvent.Kind, timeout: Duration
  ) throws(ZMQError)
    -> MonitorEvent?
  {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let remaining = clock.now.duration(to: deadline)
      guard remaining > .zero, let event = try next(wait: .timeout(remaining)) else { return nil }
      if !event.kind.intersection(kinds).isEmpty { return event }
    }
  }

  private static let counter = AtomicCounter()

  private static func nextNumber() -> Int { counter.next() }
}

extension Socket {
  /// Starts monitoring this socket for `events` (by default all); start it before bind or
  /// connect to see their events.
  public func monitor(_ events: MonitorEvent.Kind = .all) throws(ZMQError) -> Monitor {
    try Monitor(monitoring: self, events: events)
  }
}
