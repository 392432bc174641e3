import CMicroHTTPD

/// One request's state between libmicrohttpd's callbacks.
///
/// `phase`, `body` and `tooLarge` are touched only by the daemon's thread (which serializes the
/// calls for a connection); `suspended`, `finished`, `response`, `task` and `stream` only under
/// the owning ``ServerCore``'s lock. The connection pointer is used only while not `finished`.
final class RequestContext: @unchecked Sendable {
  enum Phase {
    case receiving
    case handling
    case answered
  }

  let connection: OpaquePointer
  let method: String
  let path: String

  var phase = Phase.receiving
  var body: [UInt8] = []
  var tooLarge = false

  var suspended = false
  var finished = false
  var response: HTTPResponse?
  var task: Task<Void, Never>?
  var stream: EventStream?

  init(connection: OpaquePointer, method: String, path: String) {
    self.connection = connection
    self.method = method
    self.path = path
  }
}

/// Ties an ``EventStream`` to the connection sending it; owned by the libmicrohttpd response.
final class StreamBinding: Sendable {
  let core: ServerCore
  let context: RequestContext
  let stream: EventStream

  init(core: ServerCore, context: RequestContext, stream: EventStream) {
    self.core = core
    self.context = context
    self.stream = stream
  }

  /// Resumes the connection if it waits for events.
  func wake() {
    core.resume(context)
  }

  /// Whether the connection is suspended, waiting for events.
  var isSuspended: Bool {
    core.isSuspended(context)
  }

  /// Suspends the connection until ``wake()``; `false` when the server is stopping.
  func suspend() -> Bool {
    core.suspend(context)
  }
}
