/// The loop thread's side of an ``IOLoop``: make sockets, register them for reading, start
/// timers. Only reachable on the loop thread: it is handed to the closures given to
/// ``IOLoop/execute(_:)`` and ``IOLoop/submit(_:)``, and it is not `Sendable`.
///
/// ```swift
/// try await loop.submit { scope in
///   let subscriber = try scope.makeSocket(.sub)
///   try subscriber.subscribe(to: "")
///   try subscriber.connect(endpoint)
///   scope.register(subscriber) { socket in
///     while let parts = try? socket.receiveParts(wait: .nonBlocking) { continuation.yield(parts) }
///   }
///   scope.schedule(every: .seconds(1)) { print("tick") }
/// }
/// ```
public final class LoopScope {
  let core: LoopCore
  var registrations: [Registration] = []
  var registrationsChanged = true
  var timers: [LoopTimerEntry] = []
  var nextTimerNumber = 0
  /// Every socket made by ``makeSocket(_:)``, closed at shutdown if still open.
  var ownedSockets: [WeakSocket] = []
  /// How many turns the loop has finished, for tests.
  var turns = 0

  init(core: LoopCore) {
    self.core = core
  }

  /// The loop's context.
  public var context: Context { core.context }

  /// A new socket in the loop's context, owned by the loop thread: the loop closes it at
  /// shutdown if nothing closed it before.
  public func makeSocket(_ kind: SocketKind) throws(ZMQError) -> Socket {
    precondition(core.isLoopThread, "LoopScope used off its loop thread")
    let socket = try Socket(core.context, kind)
    ownedSockets.removeAll { $0.socket == nil || $0.socket!.isClosed }
    ownedSockets.append(WeakSocket(socket: socket))
    return socket
  }

  /// Calls `handler` on the loop thread whenever `socket` is readable, until ``unregister(_:)``
  /// or until the socket is closed. The loop keeps the socket alive meanwhile and closes it at
  /// shutdown.
  ///
  /// The handler runs once per loop turn while the socket stays readable, so it may read one
  /// message or drain the socket with ``Wait/nonBlocking`` reads. Registering a socket again
  /// replaces its handler.
  public func register(_ socket: Socket, handler: @escaping (Socket) -> Void) {
    precondition(core.isLoopThread, "LoopScope used off its loop thread")
    precondition(!socket.isClosed, "cannot register a closed socket")
    if let index = registrations.firstIndex(where: { $0.socket === socket }) {
      registrations[index].handler = handler
      return
    }
    registrations.append(Registration(socket: socket, handler: handler))
    registrationsChanged = true
  }

  /// Stops calling the handler of `socket`; the socket stays open.
  public func unregister(_ socket: Socket) {
    precondition(core.isLoopThread, "LoopScope used off its loop thread")
    guard let index = registrations.firstIndex(where: { $0.socket === socket }) else { return }
    registrations[index].isActive = false
    registrations.remove(at: index)
    registrationsChanged = true
  }

  /// Runs `body` once on the loop thread after `delay`.
  @discardableResult
  public func schedule(after delay: Duration, _ body: @escaping () -> Void) -> LoopTimer {
    addTimer(deadline: ContinuousClock.now.advanced(by: delay), interval: nil, body)
  }

  /// Runs `body` on the loop thread every `interval`, first after one interval, until
  /// ``cancel(_:)``. A late turn does not cause a burst of catch-up calls.
  @discardableResult
  public func schedule(every interval: Duration, _ body: @escaping () -> Void) -> LoopTimer {
    precondition(interval > .zero, "a repeating timer needs a positive interval")
    return addTimer(deadline: ContinuousClock.now.advanced(by: interval), interval: interval, body)
  }

  /// Cancels `timer`; does nothing if it already ran (one-shot) or was cancelled.
  public func cancel(_ timer: LoopTimer) {
    precondition(core.isLoopThread, "LoopScope used off its loop thread")
    timers.removeAll { $0.timer == timer }
  }

  /// Queues `body` to run on the loop thread once the work in progress is done: later in the
  /// same turn, before its timers (in the next turn after 16 rounds of such work).
  public func execute(_ body: @escaping @Sendable (LoopScope) -> Void) {
    _ = core.enqueue(body)
  }

  private func addTimer(
    deadline: ContinuousClock.Instant, interval: Duration?, _ body: @escaping () -> Void
  ) -> LoopTimer {
    precondition(core.isLoopThread, "LoopScope used off its loop thread")
    nextTimerNumber += 1
    let timer = LoopTimer(number: nextTimerNumber)
    timers.append(LoopTimerEntry(timer: timer, deadline: deadline, interval: interval, body: body))
    return timer
  }
}

/// A timer started with ``LoopScope/schedule(after:_:)`` or ``LoopScope/schedule(every:_:)``,
/// for ``LoopScope/cancel(_:)``.
public struct LoopTimer: Hashable, Sendable {
  let number: Int
}

final class Registration {
  let socket: Socket
  var handler: (Socket) -> Void
  var isActive = true
  /// The socket's ``Socket/uses`` when the loop last asked it for events and found no input;
  /// nil when it must be asked (it had input, or was never asked).
  private var quietAt: UInt?

  init(socket: Socket, handler: @escaping (Socket) -> Void) {
    self.socket = socket
    self.handler = handler
  }

  /// Whether anything used the socket since it was last found without input: a socket nothing
  /// used signals news on its descriptor, so only a used one needs asking after a busy turn.
  var usedSinceAsked: Bool { quietAt != socket.uses }

  /// Asks the socket whether a message waits (``SocketOption/events``), noting the answer.
  func hasInput() -> Bool {
    let readable = (try? socket.get(.events))?.contains(.readable) ?? false
    quietAt = readable ? nil : socket.uses
    return readable
  }
}

struct LoopTimerEntry {
  var timer: LoopTimer
  var deadline: ContinuousClock.Instant
  var interval: Duration?
  var body: () -> Void
}

struct WeakSocket {
  weak var socket: Socket?
}
