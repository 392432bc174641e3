import Synchronization

/// A Server-Sent Events stream that any thread or task can push events into.
///
/// Return it from a handler with ``HTTPResponse/eventStream(_:)``; keep a reference wherever
/// events come from. Events sent before the client is connected are buffered. While nothing is
/// buffered the connection is suspended (libmicrohttpd's `MHD_suspend_connection`), and sending
/// an event resumes it, so an idle stream costs no polling.
///
/// ```swift
/// router.get("/events") { _ in
///   let stream = EventStream()
///   clock.subscribe(stream)                    // other code calls stream.send(...)
///   stream.onTermination { clock.unsubscribe(stream) }
///   return .eventStream(stream)
/// }
/// ```
///
/// The stream ends when ``finish()`` is called (the client sees the response end), when the
/// client goes away (noticed at the next event or keep-alive comment), when a slow client (or
/// one that stops reading) lets more than ``HTTPServer/Configuration/maximumStreamBuffer`` bytes
/// pile up (or more than the stream's own `maximumBuffer`, which also bounds what is buffered
/// before the response starts), or when the server stops, even if the client left or the server stopped before the response could be sent. Each
/// way runs the ``onTermination(_:)`` handlers once.
public final class EventStream: Sendable {
  private struct State {
    var pending: [UInt8] = []
    var finished = false
    var terminated = false
    var handlers: [@Sendable () -> Void] = []
    var binding: StreamBinding?
    var limit: Int
  }

  private let state: Mutex<State>

  /// A stream with nothing sent yet, which ends when more than `maximumBuffer` bytes wait for
  /// its client (or the server's ``HTTPServer/Configuration/maximumStreamBuffer``, if smaller),
  /// before its response starts too.
  public init(maximumBuffer: Int = 4 << 20) {
    precondition(maximumBuffer > 0, "EventStream: maximumBuffer must be positive")
    state = Mutex(State(limit: maximumBuffer))
  }

  /// Queues `event` for the client; `false` when the stream has already ended.
  @discardableResult
  public func send(_ event: ServerSentEvent) -> Bool {
    append(Array(event.encoded.utf8))
  }

  /// Queues a comment line (`: text`), which clients ignore; `false` when the stream has ended.
  @discardableResult
  public func sendComment(_ text: String) -> Bool {
    let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return append(Array(": \(line)\n\n".utf8))
  }

  /// Ends the stream once what is already queued has been sent.
  public func finish() {
    state.withLock { state in
      state.finished = true
      state.binding?.wake()
    }
  }

  /// Whether the stream takes no more events (finished, or its client is gone).
  public var isFinished: Bool {
    state.withLock { $0.finished }
  }

  /// Whether the response is over: the connection no longer uses the stream.
  public var isTerminated: Bool {
    state.withLock { $0.terminated }
  }

  /// Runs `handler` once when the stream terminates (at once if it already has).
  public func onTermination(_ handler: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state in
      if state.terminated { return true }
      state.handlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  private func append(_ bytes: [UInt8]) -> Bool {
    state.withLock { state in
      guard !state.finished else { return false }
      state.pending.append(contentsOf: bytes)
      if state.pending.count > state.limit {
        state.pending = []
        state.finished = true
      }
      state.binding?.wake()
      return !state.finished
    }
  }

  /// Connects the stream to the connection that will send it (once).
  func attach(_ binding: StreamBinding, limit: Int) {
    state.withLock { state in
      precondition(state.binding == nil, "EventStream: a stream can be sent by one response only")
      state.binding = binding
      state.limit = min(state.limit, limit)
    }
  }

  /// Copies queued bytes into `buffer`: the count, 0 after suspending the connection while
  /// nothing is queued, or -1 at the end of the stream.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    state.withLock { state in
      if !state.pending.isEmpty {
        let count = min(buffer.count, state.pending.count)
        state.pending.withUnsafeBytes { bytes in
          buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        }
        state.pending.removeFirst(count)
        return count
      }
      if state.finished { return -1 }
      guard let binding = state.binding, binding.suspend() else {
        state.finished = true
        return -1
      }
      return 0
    }
  }

  /// Whether the stream's connection is suspended, waiting for the next event (for tests).
  var isSuspended: Bool {
    state.withLock { $0.binding }?.isSuspended ?? false
  }

  /// Marks the stream over and runs the termination handlers (once).
  func terminate() {
    let handlers = state.withLock { state -> [@Sendable () -> Void] in
      guard !state.terminated else { return [] }
      state.terminated = true
      state.finished = true
      state.pending = []
      state.binding = nil
      defer { state.handlers = [] }
      return state.handlers
    }
    for handler in handlers { handler() }
  }
}
