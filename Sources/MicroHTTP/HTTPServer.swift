import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd that answers every request through an `async` handler.
///
/// The daemon runs its own polling thread (`MHD_USE_INTERNAL_POLLING_THREAD`) with
/// `MHD_ALLOW_SUSPEND_RESUME`: each request is suspended while its handler runs as a Swift task,
/// and resumed when the answer is ready, so a slow handler never holds up other connections.
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { request in .text("hello \(request.query["name"] ?? "you")\n") }
/// let server = try HTTPServer(router: router)   // port 0: any free port
/// print(server.url)                             // http://127.0.0.1:40123
/// // ...
/// server.stop()
/// ```
///
/// A handler that throws ``HTTPError`` answers with its status; any other error answers 500.
/// Bodies over ``Configuration/maximumBodySize`` are answered 413 without calling the handler.
public final class HTTPServer: Sendable {
  private struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// The configuration the server was started with (its port may be 0; see ``port``).
  public let configuration: Configuration
  /// The port the server is bound to.
  public let port: Int
  private let core: ServerCore
  private let daemon: Mutex<Daemon?>
  private let keepAlive: Task<Void, Never>?

  /// Starts a server that answers every request with `handler`.
  public init(
    configuration: Configuration = Configuration(), handler: @escaping HTTPHandler
  ) throws(HTTPServerError) {
    let core = ServerCore(configuration: configuration, handler: handler)
    let context = Unmanaged.passUnretained(core).toOpaque()
    var badHost: Int32 = 0
    let flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
      | MHD_USE_AUTO.rawValue
    errno = 0
    let started = tandem_mhd_start(
      flags, configuration.host, UInt16(configuration.port),
      UInt32(max(0, configuration.connectionTimeout)), Callbacks.access, context,
      Callbacks.completed, context, &badHost)
    guard let started else {
      if badHost != 0 { throw .invalidHost(configuration.host) }
      throw .startFailed(host: configuration.host, port: configuration.port, errno: errno)
    }
    self.configuration = configuration
    self.core = core
    self.daemon = Mutex(Daemon(pointer: started))
    self.port = Int(tandem_mhd_bound_port(started))
    if let interval = configuration.keepAliveInterval {
      keepAlive = Task.detached { [core] in
        while !Task.isCancelled {
          try? await Task.sleep(for: interval)
          if Task.isCancelled { break }
          for stream in core.openStreams() { stream.sendComment("keep-alive") }
        }
      }
    } else {
      keepAlive = nil
    }
  }

  /// Starts a server that answers through `router`.
  public convenience init(
    configuration: Configuration = Configuration(), router: Router
  ) throws(HTTPServerError) {
    try self.init(configuration: configuration, handler: router.handler)
  }

  /// The base URL, such as `http://127.0.0.1:40123`.
  public var url: String {
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    return "http://\(host):\(port)"
  }

  /// Stops the server: ends every event stream, cancels the handlers still running, closes
  /// every connection (a request whose handler had not answered gets no response) and the
  /// listening socket. Returns once the daemon's thread has ended; calling it again does nothing.
  ///
  /// Must not be called from inside libmicrohttpd's thread (a handler runs elsewhere, so
  /// handlers may call it).
  public func stop() {
    keepAlive?.cancel()
    daemon.withLock { daemon in
      guard let running = daemon else { return }
      daemon = nil
      for task in core.beginStopping() { task.cancel() }
      MHD_stop_daemon(running.pointer)
    }
  }

  deinit {
    stop()
  }
}
