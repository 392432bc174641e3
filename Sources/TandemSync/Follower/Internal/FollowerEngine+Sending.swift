import TandemProtocol
import ZeroMQ

extension FollowerEngine {
  /// Sends the held control requests, then the protocol's unsent actions, to the leader, in
  /// order.
  func flushOutbox() {
    guard let dealer, !stopped else { return }
    while let request = heldRequests.first {
      guard queue(request, on: dealer) else {
        retryFlushSoon()
        return
      }
      heldRequests.removeFirst()
    }
    perform(shared.step { $0.flush(now: .now) })
  }

  /// Sends the protocol's actions in order; one the control socket cannot queue goes back to
  /// the protocol, with the ones after it, for the next ``flushOutbox()``.
  func dispatch(_ actions: [ForwardedAction], quietly: Bool) {
    guard let dealer, !stopped, let first = actions.first else { return }
    // Held control requests go first.
    guard heldRequests.isEmpty else {
      shared.withLock { $0.core.unsent(from: first.number) }
      retryFlushSoon()
      return
    }
    for action in actions {
      let request: ControlRequest = quietly ? .dispatchQuietly(action) : .dispatch(action)
      guard queue(request, on: dealer) else {
        shared.withLock { $0.core.unsent(from: action.number) }
        retryFlushSoon()
        return
      }
    }
  }

  /// Sends a control request. One the control socket cannot queue (its queue is full while the
  /// leader catches up) is held and sent by the next ``flushOutbox()``, which comes soon;
  /// except a `PING`, which the next tick sends anew.
  func send(_ request: ControlRequest) {
    guard let dealer, !stopped else { return }
    if heldRequests.isEmpty, queue(request, on: dealer) { return }
    if case .ping = request { return }
    heldRequests.append(request)
    retryFlushSoon()
  }

  /// How long a send that could not be queued waits before it is tried again.
  static var flushRetryDelay: Duration { .milliseconds(10) }

  /// Queues `request` on the control socket; false when its queue is full. A request the
  /// socket refuses for another reason is logged and dropped (an action among them is sent
  /// again when it goes unanswered).
  private func queue(_ request: ControlRequest, on dealer: Socket) -> Bool {
    do {
      if try dealer.send(parts: request.frames, wait: .nonBlocking) { return true }
      counters.sendsDeferred += 1
      return false
    } catch {
      log.error("cannot send \(request): \(error)")
      return true
    }
  }

  /// Flushes again shortly: a send that could not be queued is retried, not left until the
  /// next action.
  private func retryFlushSoon() {
    guard !flushRetryScheduled else { return }
    flushRetryScheduled = true
    scope.schedule(after: Self.flushRetryDelay) { [weak self] in
      guard let self else { return }
      flushRetryScheduled = false
      flushOutbox()
    }
  }
}
