import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An I/O loop: one OS thread that owns its sockets, and a thread-safe way to hand it work.
///
/// libzmq sockets must stay on one thread, and their blocking calls must never run on Swift's
/// cooperative thread pool. An `IOLoop` gives them a thread of their own. Any thread or task
/// hands it closures, with ``execute(_:)`` (fire and forget) or ``submit(_:)`` (await the
/// result); each closure runs on the loop thread with the ``LoopScope``, through which it
/// makes sockets, registers read handlers and starts timers. Values that must stay on the
/// loop (sockets, protocol state) travel between closures in a ``LoopBound``.
///
/// ```swift
/// let loop = try IOLoop(name: "updates")
/// let (stream, continuation) = AsyncStream.makeStream(of: [[UInt8]].self)
/// let publisher = try await loop.submit { scope in
///   let socket = try scope.makeSocket(.pub)
///   try socket.bind(.tcp(host: "127.0.0.1"))
///   return LoopBound(socket, scope: scope)
/// }
/// loop.execute { _ in _ = try? publisher.value.send(parts: [Array("topic".utf8), [1, 2, 3]]) }
/// await loop.shutdown()
/// ```
///
/// Wake-ups are cheap under load: a closure is queued under a lock and the loop is signalled
/// through a pipe only when the queue goes from empty to non-empty; each wake-up runs the whole
/// queue, in order. ``shutdown()`` runs what is already queued, closes every socket the loop
/// owns and ends the thread.
///
/// Releasing the last reference to a running loop shuts it down too. Released on another
/// thread, the loop is stopped and joined before the release returns, as ``syncShutdown()``
/// does; released inside a job on its own thread (a task that prefers the loop as its
/// executor drops it, say), it begins the shutdown and its thread ends on its own once that
/// job is done, never joined from itself. ``beginShutdown(after:)`` stops a loop without
/// waiting for it, from any thread.
public final class IOLoop: Sendable {
  let core: LoopCore
  private let thread: Mutex<LoopThread?>

  /// Starts a loop thread named `name`, with sockets in `context`.
  ///
  /// The default context is not blocky (`ZMQ_BLOCKY` off): its sockets start with a linger of
  /// zero, so shutting a loop down never waits for a peer that is gone. Set
  /// ``SocketOption/linger`` on a socket whose last messages must be flushed.
  public init(
    context: Context = Context(blocky: false), name: String = "zmq-loop"
  )
    throws(ZMQError)
  {
    let core = try LoopCore(context: context, name: name)
    self.core = core
    thread = Mutex(LoopThread(name: name) { LoopScope(core: core).run() })
  }

  deinit {
    if !core.isLoopThread {
      syncShutdown()
    } else {
      // The last reference went away inside a job: the loop still ends, nobody can join it.
      _ = core.beginShutdown()
      thread.withLock { $0.take() }?.detach()
    }
  }

  /// The loop's context.
  public var context: Context { core.context }

  /// The loop thread's name.
  public var name: String { core.name }

  /// Whether the caller is running on this loop's thread.
  public var inLoopThread: Bool { core.isLoopThread }

  /// Runs `body` on the loop thread, after the work queued before it; returns at once.
  ///
  /// Returns `false` (and drops `body`) when the loop is shutting down.
  @discardableResult
  public func execute(_ body: @escaping @Sendable (LoopScope) -> Void) -> Bool {
    core.enqueue(body)
  }

  /// Runs `body` on the loop thread and returns its result (or rethrows its error).
  ///
  /// Throws ``IOLoopClosedError`` when the loop is shutting down. Never blocks the caller's
  /// thread: the task is suspended until the loop has run `body`.
  public func submit<Result: Sendable>(
    _ body: @escaping @Sendable (LoopScope) throws -> Result
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      let queued = core.enqueue { scope in
        continuation.resume(with: Swift.Result { try body(scope) })
      }
      if !queued { continuation.resume(throwing: IOLoopClosedError(name: core.name)) }
    }
  }

  /// Stops the loop: the work already queued runs, every socket the loop owns is closed, the
  /// thread ends and is joined. Later calls return at once.
  public func shutdown() async {
    _ = core.beginShutdown()
    await core.waitUntilFinished()
    // The loop thread has finished its work; joining waits only for it to return.
    thread.withLock { $0.take() }?.join()
  }

  /// Begins stopping the loop and returns at once, on any thread, the loop's own included:
  /// `last` runs after the work already queued, then the loop closes every socket it owns and
  /// its thread ends. Returns `false` (and drops `last`) when the loop is already shutting down.
  ///
  /// This is the shutdown for an owner's `deinit`, which can neither await ``shutdown()`` nor
  /// block in ``syncShutdown()`` (the loop may be waiting for the releasing thread, or be that
  /// thread). The loop holds itself until `last` has run, so its last reference usually goes
  /// on its own thread, which lets the thread end without being joined.
  ///
  /// ```swift
  /// deinit {
  ///   let engine = self.engine
  ///   loop.beginShutdown { _ in engine.value.stop() }
  /// }
  /// ```
  @discardableResult
  public func beginShutdown(
    after last: @escaping @Sendable (LoopScope) -> Void = { _ in }
  ) -> Bool {
    let queued = core.enqueue { scope in
      last(scope)
      withExtendedLifetime(self) {}
    }
    if queued { _ = core.beginShutdown() }
    return queued
  }

  /// Stops the loop like ``shutdown()``, blocking the calling thread until it has ended.
  /// Must not be called on the loop thread itself; prefer ``shutdown()`` from async code.
  public func syncShutdown() {
    precondition(!core.isLoopThread, "IOLoop.syncShutdown() called on its own loop thread")
    _ = core.beginShutdown()
    if let thread = thread.withLock({ $0.take() }) {
      thread.join()
    } else {
      // Another caller is joining; the loop is at most a few closures away from its end.
      while !core.isFinished { sched_yield() }
    }
  }

  /// How many wake-ups the loop has been sent so far (for tests of their coalescing).
  var wakeUpCount: Int { core.state.withLock { $0.wakeUps } }
}

/// The ``IOLoop`` was shut down before the work could run.
public struct IOLoopClosedError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The loop's name.
  public var name: String

  /// `I/O loop 'name' is shut down`.
  public var description: String { "I/O loop '\(name)' is shut down" }
}
