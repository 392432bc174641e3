import TandemProtocol
import ZeroMQ

extension FollowerEngine {
  /// Sends the held control requests, then the outbox's unsent actions, to the leader, in
  /// order: actions quietly (no `ACK` for an applied action, whose delta answers it) while the
  /// replica is in step with the updates.
  func flushOutbox() {
    guard let dealer, !stopped else { return }
    while let request = heldRequests.first {
      guard queue(request, on: dealer) else {
        retryFlushSoon()
        return
      }
      heldRequests.removeFirst()
    }
    let quietly = sync.phase == .live
    let actions = outbox.withLock {
      $0.outbox.takeUnsent(
        now: .now, replica: (sync.epoch, sync.sequence), client: configuration.clientID,
        generation: sync.generation, quietly: quietly)
    }
    for action in actions {
      let request: ControlRequest = quietly ? .dispatchQuietly(action) : .dispatch(action)
      guard queue(request, on: dealer) else {
        outbox.withLock { $0.outbox.unsend(from: action.number) }
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

  /// Says `HELLO` again on the open connection after an `out-of-order` answer, which shows that
  /// the leader's numbering differs from the outbox's; its `WELCOME` realigns the outbox, which
  /// sends nothing meanwhile.
  func realign(because reason: String) {
    guard outbox.withLock({ $0.outbox.realign(now: .now) }) else { return }
    log.info("asking the leader where the numbering stands: \(reason)")
    counters.realignments += 1
    send(sync.hello(client: configuration.clientID, fingerprint: fingerprint))
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
