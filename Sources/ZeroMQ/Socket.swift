import CZeroMQ

/// A libzmq socket (`zmq_socket`), owned by one thread at a time.
///
/// A socket keeps its ``Context`` alive and is closed exactly once: by ``close()`` or, failing
/// that, when the last reference goes (`deinit`). It is not `Sendable`: libzmq sockets must not
/// be used from two threads, so a socket lives on the thread that made it, typically an
/// ``IOLoop``'s thread. Using a socket after ``close()`` is a programmer error and traps.
///
/// ```swift
/// let context = Context()
/// let publisher = try Socket(context, .pub)
/// try publisher.bind(.tcp(host: "127.0.0.1"))
/// let endpoint = try publisher.lastEndpoint        // tcp://127.0.0.1:<port>
///
/// let subscriber = try Socket(context, .sub)
/// try subscriber.subscribe(to: "prices.")
/// try subscriber.connect(endpoint)
/// // ... once the subscription has reached the publisher (PUB drops what it sends before):
/// try publisher.send(parts: [Array("prices.eur".utf8), [1, 2, 3]])
/// let parts = try subscriber.receiveParts()          // [[112, 114, ...], [1, 2, 3]]
/// ```
public final class Socket {
  /// The context this socket keeps alive.
  public let context: Context
  /// The socket's kind.
  public let kind: SocketKind
  // Only this socket's one thread touches the handle, and no access spans a call that could
  // reach it again, so the runtime exclusivity check on the hot path buys nothing.
  @exclusivity(unchecked) @usableFromInline var _handle: UnsafeMutableRawPointer?
  /// How many times the handle was taken for a libzmq call. Any call on a socket may process
  /// its pending commands, and with them the signal of its descriptor (`ZMQ_FD`); a socket
  /// whose count has not moved since it was last found without input still signals news on its
  /// descriptor, so the I/O loop need not ask it again (see `LoopScope.run()`).
  @exclusivity(unchecked) @usableFromInline var _uses: UInt = 0

  /// A new socket of `kind` in `context`.
  public init(_ context: Context, _ kind: SocketKind) throws(ZMQError) {
    self.context = context
    self.kind = kind
    _handle = try zmqPointerCall("zmq_socket(\(kind))") {
      zmq_socket(context.handle, kind.rawValue)
    }
  }

  deinit {
    close()
  }

  /// The open handle, counted as a use; traps once the socket is closed.
  @inlinable var handle: UnsafeMutableRawPointer {
    guard let handle = _handle else { preconditionFailure("\(kind) socket used after close()") }
    _uses &+= 1
    return handle
  }

  /// How many libzmq calls were made on the socket (see `_uses`).
  var uses: UInt { _uses }

  /// Whether ``close()`` has run.
  public var isClosed: Bool { _handle == nil }

  /// Closes the socket (`zmq_close`); later calls do nothing.
  ///
  /// Unsent messages are kept for the ``SocketOption/linger`` period by the context's I/O
  /// thread, as libzmq does.
  public func close() {
    guard let handle = _handle else { return }
    _handle = nil
    let status = zmq_close(handle)
    assert(status == 0, "zmq_close failed: errno \(zmq_errno())")
  }

  /// Binds to `endpoint` (`zmq_bind`). Bind `tcp://host:*` and read ``lastEndpoint`` back for
  /// the port the system chose.
  public func bind(_ endpoint: Endpoint) throws(ZMQError) {
    let handle = handle
    _ = try zmqCall("zmq_bind(\(endpoint))") { zmq_bind(handle, endpoint.description) }
  }

  /// Connects to `endpoint` (`zmq_connect`); libzmq connects (and reconnects) in the background.
  public func connect(_ endpoint: Endpoint) throws(ZMQError) {
    let handle = handle
    _ = try zmqCall("zmq_connect(\(endpoint))") { zmq_connect(handle, endpoint.description) }
  }

  /// Stops listening on an endpoint given to ``bind(_:)`` (`zmq_unbind`). For a wildcard bind,
  /// pass the endpoint read back from ``lastEndpoint``.
  public func unbind(_ endpoint: Endpoint) throws(ZMQError) {
    let handle = handle
    _ = try zmqCall("zmq_unbind(\(endpoint))") { zmq_unbind(handle, endpoint.description) }
  }

  /// Disconnects from an endpoint given to ``connect(_:)`` (`zmq_disconnect`).
  public func disconnect(_ endpoint: Endpoint) throws(ZMQError) {
    let handle = handle
    _ = try zmqCall("zmq_disconnect(\(endpoint))") { zmq_disconnect(handle, endpoint.description) }
  }

  /// The endpoint last bound or connected, with the real port for a wildcard bind
  /// (`ZMQ_LAST_ENDPOINT`).
  public var lastEndpoint: Endpoint {
    get throws(ZMQError) {
      let text = try get(.lastEndpoint)
      guard let endpoint = Endpoint(parsing: text) else {
        throw ZMQError(code: .invalidArgument, call: "zmq_getsockopt(ZMQ_LAST_ENDPOINT)")
      }
      return endpoint
    }
  }

  /// Subscribes a SUB socket to messages whose first frame starts with `prefix`
  /// (`ZMQ_SUBSCRIBE`); the empty prefix subscribes to everything.
  public func subscribe(to prefix: some Collection<UInt8> = [UInt8]()) throws(ZMQError) {
    try set(.subscribe, Array(prefix))
  }

  /// Subscribes a SUB socket to messages whose first frame starts with `prefix`'s UTF-8.
  public func subscribe(to prefix: String) throws(ZMQError) {
    try set(.subscribe, Array(prefix.utf8))
  }

  /// Removes one earlier subscription to `prefix` (`ZMQ_UNSUBSCRIBE`).
  public func unsubscribe(from prefix: some Collection<UInt8>) throws(ZMQError) {
    try set(.unsubscribe, Array(prefix))
  }

  /// Removes one earlier subscription to `prefix`'s UTF-8 (`ZMQ_UNSUBSCRIBE`).
  public func unsubscribe(from prefix: String) throws(ZMQError) {
    try set(.unsubscribe, Array(prefix.utf8))
  }

  /// Calls `body` with the raw `void *` socket handle, for libzmq calls this module does not
  /// wrap. The handle must not be closed or kept beyond `body`.
  public func withUnsafeHandle<Result, Failure: Error>(
    _ body: (UnsafeMutableRawPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(handle)
  }
}
