import CZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A libzmq context (`zmq_ctx_new`): the owner of the I/O threads that every socket uses.
///
/// Each ``Socket`` keeps its context alive, so a context is terminated (`zmq_ctx_term`) only
/// when it and all its sockets are gone. A context may be shared by every thread: libzmq makes
/// its calls thread-safe.
///
/// Termination waits, as libzmq does, until every closed socket has delivered its pending
/// messages or its ``SocketOption/linger`` period has passed. libzmq's default linger is
/// forever, so a socket with messages queued for a peer that never comes would make the last
/// release of its context hang. Set ``SocketOption/linger`` on such sockets, or make the
/// context with `blocky: false` so that its sockets start with a linger of zero.
///
/// ```swift
/// let context = Context()
/// let socket = try Socket(context, .pub)
/// ```
public final class Context: @unchecked Sendable {
  // The handle is immutable after init and libzmq context calls are thread-safe.
  @usableFromInline let handle: UnsafeMutableRawPointer

  /// A new context with `ioThreads` background I/O threads (`ZMQ_IO_THREADS`, default 1).
  ///
  /// With `blocky` false (`ZMQ_BLOCKY`), sockets made in this context start with a linger of
  /// zero instead of forever, so unsent messages are dropped when they are closed.
  public init(ioThreads: Int32 = 1, blocky: Bool = true) {
    guard let handle = zmq_ctx_new() else {
      fatalError("zmq_ctx_new failed: \(ZMQError.Code(rawValue: zmq_errno()))")
    }
    self.handle = handle
    if ioThreads != 1 {
      let status = zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads)
      precondition(status == 0, "zmq_ctx_set(ZMQ_IO_THREADS, \(ioThreads)) failed")
    }
    if !blocky {
      let status = zmq_ctx_set(handle, ZMQ_BLOCKY, 0)
      precondition(status == 0, "zmq_ctx_set(ZMQ_BLOCKY, 0) failed")
    }
  }

  deinit {
    // Every socket holds a reference to its context, so none is open here and the call
    // returns at once; it can still be interrupted by a signal.
    let handle = handle
    do {
      _ = try zmqCall("zmq_ctx_term") { zmq_ctx_term(handle) }
    } catch {
      assertionFailure("\(error)")
    }
  }

  /// The libzmq library version, as `(major, minor, patch)`.
  public static var version: (major: Int32, minor: Int32, patch: Int32) {
    var major: Int32 = 0
    var minor: Int32 = 0
    var patch: Int32 = 0
    zmq_version(&major, &minor, &patch)
    return (major, minor, patch)
  }

  /// Whether libzmq was built with `capability` (`zmq_has`), e.g. `"curve"` or `"ipc"`.
  public static func has(_ capability: String) -> Bool {
    zmq_has(capability) != 0
  }
}
