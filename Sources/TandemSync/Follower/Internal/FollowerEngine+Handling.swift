import Tandem
import TandemProtocol
import ZeroMQ

extension FollowerEngine {
  /// Feeds the protocol every reply waiting on the control socket.
  func repliesArrived() {
    while let dealer, let parts = try? dealer.receiveParts(wait: .nonBlocking) {
      let reply: ControlReply
      do {
        reply = try ControlReply(frames: parts)
      } catch {
        counters.malformedMessages += 1
        log.rateLimited(.error, "malformed reply from the leader: \(error)")
        continue
      }
      log.rateLimited(.debug, "reply \(reply)")
      switch reply {
      case .welcome, .redirect:
        // The leader answered a HELLO (or a standby named the one that serves): the next
        // outage backs off from the shortest delay again.
        nextDelay = configuration.reconnectDelay
      case .error:
        // An ERROR stops the follower or drops the connection: first read the updates that
        // wait (as a tick does), so that the deltas answering the actions in flight settle
        // them rather than fail with the rest.
        updatesArrived()
      default:
        break
      }
      perform(shared.step { $0.received(reply, now: .now) })
      guard !stopped else { return }
    }
  }

  /// Feeds the protocol every message waiting on the updates socket, several in one step (one
  /// lock); deltas that arrived together reach a replica store without subscribers as one
  /// change (``pendingDeltas``).
  func updatesArrived() {
    var updates: [UpdateMessage] = []
    while let subscriber, let parts = try? subscriber.receiveParts(wait: .nonBlocking) {
      do {
        let update = try UpdateMessage(frames: parts)
        log.rateLimited(.debug, "update \(update)")
        updates.append(update)
      } catch {
        counters.malformedMessages += 1
        log.rateLimited(.error, "malformed update from the leader: \(error)")
      }
      if updates.count == Self.pendingDeltaLimit {
        feed(updates)
        updates.removeAll(keepingCapacity: true)
      }
    }
    feed(updates)
    applyPendingDeltas()
  }

  /// Feeds the protocol `updates` in order, as few steps as it takes: a step ends after an
  /// update whose effects may void the ones after them (a reconnect, a stop, a hash check), so
  /// that the protocol sees no update the shell would not carry out. What is left once the
  /// updates socket is gone is dropped with it.
  private func feed(_ updates: [UpdateMessage]) {
    var next = 0
    let now = ContinuousClock.now
    while next < updates.count, !stopped, subscriber != nil {
      let step = shared.step { core in
        // One update (the usual case) returns its own effects, without a second array.
        var effects = core.received(updates[next], now: now)
        next += 1
        guard !effects.contains(where: \.mayVoidTheRest) else { return effects }
        while next < updates.count {
          let added = core.received(updates[next], now: now)
          next += 1
          effects += added
          if added.contains(where: \.mayVoidTheRest) { break }
        }
        return effects
      }
      perform(step, settling: false)
    }
  }

  /// Carries out the protocol's effects in order, then (unless `settling` is false) applies
  /// the deltas still pending, which reports them to the protocol.
  ///
  /// Deltas wait in ``pendingDeltas`` while the replica store has no subscribers (no one sees
  /// the states in between), up to ``pendingDeltaLimit``; any other effect applies them first.
  func perform(_ step: SharedFollowerProtocol.Step, settling: Bool = true) {
    var receipts = step.receipts.makeIterator()
    for effect in step.effects {
      guard !stopped else { return }
      if case .apply(let delta) = effect {
        pendingDeltas.append(delta)
        if pendingDeltas.count < Self.pendingDeltaLimit, store?.hasSubscribers == false {
          continue
        }
      }
      guard applyPendingDeltas() else { return }
      switch effect {
      case .send(let request):
        send(request)
      case .dispatch(let actions, let quietly):
        dispatch(actions, quietly: quietly)
      case .subscribe(let endpoint):
        subscribe(to: endpoint)
      case .reconnect(let reason):
        reconnect(because: reason)
        return
      case .stop(let cause):
        stop(FollowerError(cause))
        return
      case .settle(_, let result):
        settle(receipts.next() ?? nil, result)
      case .replace(let epoch, let sequence, let hash, let document):
        // A snapshot that did not decode leaves the old replica: the deltas buffered for the
        // snapshot's state (the effects after this one) must not touch it.
        guard replace(epoch: epoch, sequence: sequence, hash: hash, document: document) else {
          return
        }
      case .apply:
        break
      case .verify(let hash):
        guard replicaHashMatches(hash) else {
          perform(shared.step { $0.replicaDiverged(now: .now) })
          return
        }
      case .log(let level, let message, let peerControlled):
        write(message, at: level, rateLimited: peerControlled)
      case .connectionChanged(let link):
        changeConnection(to: link)
      }
    }
    if settling { applyPendingDeltas() }
  }

  /// Settles `receipt` with `result`, noting how long its action took to show.
  private func settle(_ receipt: Receipt?, _ result: Result<UInt64, ReceiptFailure>) {
    guard let receipt else { return }
    switch result {
    case .success(let sequence):
      receipt.settle(.success(sequence))
      sendToApplied.observe(.now - receipt.sentAt)
    case .failure(let failure):
      receipt.settle(.failure(FollowerError(failure, stopReason: stopReason)))
    }
  }

  private func write(_ message: String, at level: FollowerEffect.LogLevel, rateLimited: Bool) {
    let level: TandemLogger.Level =
      switch level {
      case .debug: .debug
      case .info: .info
      case .error: .error
      }
    if rateLimited {
      log.rateLimited(level, message)
    } else {
      log.log(level: level, message)
    }
  }

  /// Whether the replica store's state hashes to `hash` (or there is no store). Out of line:
  /// it reads an optional `State`, whose metadata unspecialized code looks up at run time at
  /// the entry of the function that holds it, which ``perform(_:settling:)`` runs per update.
  @inline(never)
  private func replicaHashMatches(_ hash: UInt64) -> Bool {
    guard let store else { return true }
    return model.stateHash(of: store.state) == hash
  }

  /// Fails the join (or stops a running follower) with `error`.
  func fail(_ error: FollowerError) {
    log.error("\(error)")
    stop(error)
  }
}

extension FollowerEffect {
  /// Whether carrying out the effect may void the effects after it (see
  /// `FollowerEngine.perform(_:settling:)`).
  fileprivate var mayVoidTheRest: Bool {
    switch self {
    case .reconnect, .stop, .verify, .replace: true
    default: false
    }
  }
}
