import Tandem
import TandemProtocol
import ZeroMQ

extension FollowerEngine {
  /// Handles every reply waiting on the control socket.
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
      case .welcome(
        let epoch, let sequence, let lastNumber, let forgottenThrough, _, let updates, _, let limits
      ):
        outbox.withLock { $0.outbox.leaderLimits = limits }
        nextDelay = configuration.reconnectDelay
        let joining = sync.phase == .greeting
        perform(sync.received(reply, now: .now))
        if joining || outbox.withLock({ $0.outbox.realigningSince != nil }) {
          // A realignment's WELCOME may come from a leader restarted behind the open connection,
          // on another updates endpoint: read the one it names.
          if subscriber == nil || subscribedTo != updates { subscribe(to: updates) }
          let unknown = outbox.withLock { guarded in
            guarded.take(
              guarded.outbox.welcome(
                lastNumber: lastNumber, forgottenThrough: forgottenThrough, epoch: epoch,
                sequence: sequence
              ).map(\.receipt))
          }
          if !unknown.isEmpty {
            log.error(
              "the leader forgot this client with \(unknown.count) actions unanswered; "
                + "they may have been applied, so they are not sent again")
          }
          for receipt in unknown { receipt.settle(.failure(.outcomeUnknown)) }
          flushOutbox()
        }
      case .ack(_, let number, let epoch, let sequence):
        guard let receipt = outbox.withLock({ $0.answered(number) }) else {
          continue
        }
        awaitingVisibility.append((epoch, sequence, receipt))
        settleVisible()
      case .reject(_, let number, let rejection):
        if rejection.code == .outOfOrder {
          realign(because: "action \(number) is out of order: \(rejection.message)")
        } else if let receipt = outbox.withLock({ $0.answered(number) }) {
          receipt.settle(.failure(.rejected(rejection)))
        }
      case .error(.superseded, let message):
        // Another connection said HELLO for this client id since this one did, and this
        // follower's own earlier connections are closed: another process uses the id. Sending
        // on would mix two numberings; stop, and say why.
        log.rateLimited(
          .error, "another process took over client id \(configuration.clientID): \(message)")
        stop(.refused(code: .superseded, message: message))
        return
      case .error(let code, let message) where code.isFinal:
        log.rateLimited(.error, "the leader refused this follower (\(code)): \(message)")
        stop(.refused(code: code, message: message))
        return
      default:
        perform(sync.received(reply, now: .now))
      }
    }
  }

  /// Handles every message waiting on the updates socket; deltas that arrived together reach a
  /// replica store without subscribers as one change (``pendingDeltas``).
  func updatesArrived() {
    while let subscriber, let parts = try? subscriber.receiveParts(wait: .nonBlocking) {
      do {
        let update = try UpdateMessage(frames: parts)
        log.rateLimited(.debug, "update \(update)")
        perform(sync.received(update, now: .now), settling: false)
      } catch {
        counters.malformedMessages += 1
        log.rateLimited(.error, "malformed update from the leader: \(error)")
      }
    }
    settleVisible()
    noteInStep()
  }

  /// Carries out what the sync rules ask for, then (unless `settling` is false) shows the
  /// replica's new state and resolves the receipts it makes visible.
  ///
  /// Deltas wait in ``pendingDeltas`` while the replica store has no subscribers (no one sees
  /// the states in between), up to ``pendingDeltaLimit``; any other effect applies them first.
  func perform(_ effects: [ReplicaSync.Effect], settling: Bool = true) {
    for effect in effects {
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
      case .replace(let epoch, let sequence, let hash, let document):
        // A snapshot that did not decode leaves the old replica: the deltas buffered for the
        // snapshot's state (the effects after this one) must not touch it.
        guard replace(epoch: epoch, sequence: sequence, hash: hash, document: document) else {
          return
        }
      case .apply:
        break
      case .realign(let reason):
        realign(because: reason)
      case .report(let message):
        log.error(message)
      case .verify(let hash):
        guard replicaHashMatches(hash) else {
          log.rateLimited(
            .error, "state hash differs from the leader's at \(sync.sequence); resyncing")
          perform(sync.diverged())
          return
        }
      case .reconnect(let reason):
        reconnect(because: reason)
        return
      }
    }
    if settling {
      settleVisible()
      noteInStep()
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

  /// Resolves the receipts whose sequence the replica now shows. None while a snapshot is
  /// awaited or the replica is behind its sync position (a delta or a snapshot did not apply)
  /// until a snapshot replaces it.
  func settleVisible() {
    guard applyPendingDeltas(), sync.phase != .awaitingSnapshot, !sync.replicaBehind,
      let epoch = sync.epoch, !awaitingVisibility.isEmpty
    else { return }
    let sequence = sync.sequence
    awaitingVisibility.removeAll { waiting in
      guard waiting.epoch == epoch, waiting.sequence <= sequence else { return false }
      waiting.receipt.settle(.success(waiting.sequence))
      sendToApplied.observe(.now - waiting.receipt.sentAt)
      return true
    }
  }

  /// Fails the join (or stops a running follower) with `error`.
  func fail(_ error: FollowerError) {
    log.error("\(error)")
    stop(error)
  }
}
