import CMicroHTTPD
import Synchronization

/// The part of an ``HTTPServer`` that libmicrohttpd calls back into.
///
/// Every suspend and resume decision is taken under `registry`'s lock, so a connection is
/// resumed only while it is suspended and never after libmicrohttpd reported it complete, and
/// nothing is suspended once stopping began (libmicrohttpd must not stop with suspended
/// connections). Lock order: an ``EventStream``'s lock, then this one.
final class ServerCore: Sendable {
  private struct Registry {
    var stopping = false
    var live: [ObjectIdentifier: RequestContext] = [:]
  }

  let configuration: HTTPServer.Configuration
  let handler: HTTPHandler
  private let registry = Mutex(Registry())

  init(configuration: HTTPServer.Configuration, handler: @escaping HTTPHandler) {
    self.configuration = configuration
    self.handler = handler
  }

  // MARK: Suspension

  func suspend(_ context: RequestContext) -> Bool {
    registry.withLock { registry in
      guard !registry.stopping, !context.finished, !context.suspended else { return false }
      MHD_suspend_connection(context.connection)
      context.suspended = true
      return true
    }
  }

  /// Whether `context`'s connection is suspended now.
  func isSuspended(_ context: RequestContext) -> Bool {
    registry.withLock { _ in context.suspended }
  }

  func resume(_ context: RequestContext) {
    registry.withLock { _ in
      Self.resumeLocked(context)
    }
  }

  private static func resumeLocked(_ context: RequestContext) {
    guard context.suspended, !context.finished else { return }
    context.suspended = false
    MHD_resume_connection(context.connection)
  }

  /// Stores the handler's answer and resumes the connection to send it; an answer for a
  /// connection already complete is dropped.
  func deliver(_ response: HTTPResponse, to context: RequestContext) {
    let stored = registry.withLock { _ in
      context.task = nil
      guard !context.finished else { return false }
      context.response = response
      Self.resumeLocked(context)
      return true
    }
    if !stored { response.drop() }
  }

  /// Marks every request as stopping: resumes what is suspended, returns the running handlers.
  func beginStopping() -> [Task<Void, Never>] {
    registry.withLock { registry in
      registry.stopping = true
      for context in registry.live.values { Self.resumeLocked(context) }
      return registry.live.values.compactMap(\.task)
    }
  }

  /// The event streams currently being sent.
  func openStreams() -> [EventStream] {
    registry.withLock { registry in registry.live.values.compactMap(\.stream) }
  }

  // MARK: Request life cycle

  func begin(_ context: RequestContext) {
    registry.withLock { registry in registry.live[ObjectIdentifier(context)] = context }
  }

  /// Ends a request: cancels its handler, ends the stream it sent and drops an answer it never
  /// sent.
  func complete(_ context: RequestContext) {
    let (task, stream, unsent) = registry.withLock { registry in
      context.finished = true
      context.suspended = false
      registry.live[ObjectIdentifier(context)] = nil
      defer {
        context.task = nil
        context.response = nil
      }
      return (context.task, context.stream, context.response)
    }
    task?.cancel()
    stream?.terminate()
    unsent?.drop()
  }

  func startHandler(for request: HTTPRequest, context: RequestContext) -> Bool {
    guard suspend(context) else { return false }
    let task = Task {
      let response = await self.respond(to: request)
      self.deliver(response, to: context)
    }
    registry.withLock { _ in
      if context.response == nil && !context.finished { context.task = task }
    }
    return true
  }

  func takeResponse(_ context: RequestContext) -> HTTPResponse? {
    registry.withLock { _ in
      defer { context.response = nil }
      return context.response
    }
  }

  func attach(_ stream: EventStream, to context: RequestContext) -> StreamBinding {
    let binding = StreamBinding(core: self, context: context, stream: stream)
    stream.attach(binding, limit: configuration.maximumStreamBuffer)
    registry.withLock { _ in context.stream = stream }
    return binding
  }

  private func respond(to request: HTTPRequest) async -> HTTPResponse {
    do {
      return try await handler(request)
    } catch let error as HTTPError {
      return .text(error.message + "\n", status: error.status)
    } catch {
      return .text("internal server error\n", status: 500)
    }
  }
}

extension HTTPResponse {
  /// Gives up a response that will never be sent: its event stream, which no connection will
  /// ever end, terminates now.
  fileprivate func drop() {
    if case .eventStream(let stream) = body { stream.terminate() }
  }
}
