/// A ZAP handler (ZeroMQ RFC 27) on an I/O thread of its own: it answers the authentication
/// requests of every socket of a ``Context``, with a function the owner gives.
///
/// libzmq asks the handler bound in a socket's context about each peer completing a `CURVE`
/// (or `PLAIN`) handshake; with no handler bound, a `CURVE` server accepts any client key. Start
/// the handler before binding the sockets it guards:
///
/// ```swift
/// let loop = try IOLoop()
/// let zap = try await ZAPHandler(context: loop.context) { request in
///   guard let key = request.curveKey, let name = allowed[key] else {
///     return ZAPReply(requestID: request.requestID, status: .authenticationFailure,
///                     statusText: "unknown key")
///   }
///   return ZAPReply(requestID: request.requestID, status: .success, statusText: "OK",
///                   userID: name)
/// }
/// ```
///
/// A request that does not parse gets status `500` (RFC 27's internal error). ``stop()`` unbinds
/// it: a CURVE socket of the context then hangs its new handshakes (libzmq waits for a handler),
/// so stop the handler after the sockets.
public final class ZAPHandler: Sendable {
  private let loop: IOLoop

  /// Binds a handler at ``ZAPRequest/endpoint`` in `context`, on a new thread, answering each
  /// request with `authenticate` (called on that thread).
  ///
  /// - Throws: ``ZMQError`` with ``ZMQError/Code/addressInUse`` when the context already has a
  ///   handler.
  public init(
    context: Context, name: String = "zap-handler",
    authenticate: @escaping @Sendable (ZAPRequest) -> ZAPReply
  ) async throws {
    loop = try IOLoop(context: context, name: name)
    try await loop.submit { scope in
      let socket = try scope.makeSocket(.rep)
      try socket.set(.linger, .zero)
      try socket.bind(ZAPRequest.endpoint)
      scope.register(socket) { socket in
        while let frames = try? socket.receiveParts(wait: .nonBlocking) {
          let reply: ZAPReply
          if let request = ZAPRequest(frames: frames) {
            reply = authenticate(request)
          } else {
            let requestID = frames.count > 1 ? frames[1] : []
            reply = ZAPReply(
              requestID: requestID, status: .internalError, statusText: "malformed ZAP request")
          }
          _ = try? socket.send(parts: reply.frames, wait: .nonBlocking)
        }
      }
    }
  }

  /// Unbinds the handler and ends its thread.
  public func stop() async {
    await loop.shutdown()
  }
}
