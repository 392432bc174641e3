import Tandem
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
        log.error("malformed reply from the leader: \(error)")
        continue
      }
      log.debug("reply \(reply)")
      switch reply {
      case .welcome(_, _, let lastNumber, _, let updates):
        nextDelay = configuration.reconnectDelay
        let joining = sync.phase == .greeting
        perform(sync.received(reply, now: .now))
        if joining {
          subscribe(to: updates)
          outbox.withLock { $0.welcome(lastNumber: lastNumber) }
          flushOutbox()
        }
      case .ack(_, let number, let epoch, let sequence):
        guard let entry = outbox.withLock({ $0.answered(number) }) else { continue }
        awaitingVisibility.append((epoch, sequence, entry.receipt))
        settleVisible()
      case .reject(_, let number, let rejection):
        if rejection.code == .outOfOrder {
          if outbox.withLock({ $0.outOfOrder(number) }) {
            counters.resends += 1
            flushOutbox()
          }
        } else if let entry = outbox.withLock({ $0.answered(number) }) {
          entry.receipt.settle(.failure(.rejected(rejection)))
        }
      case .error(let code, let message) where code == "fingerprint" || code == "version":
        log.error("the leader refused this follower (\(code)): \(message)")
        stop(.refused(code: code, message: message))
        return
      default:
        perform(sync.received(reply, now: .now))
      }
    }
  }

  /// Handles every message waiting on the updates socket.
  func updatesArrived() {
    while let subscriber, let parts = try? subscriber.receiveParts(wait: .nonBlocking) {
      do {
        let update = try UpdateMessage(frames: parts)
        log.debug("update \(update)")
        perform(sync.received(update, now: .now))
      } catch {
        counters.malformedMessages += 1
        log.error("malformed update from the leader: \(error)")
      }
    }
  }

  /// Carries out what the sync rules ask for.
  func perform(_ effects: [ReplicaSync.Effect]) {
    for effect in effects {
      guard !stopped else { return }
      switch effect {
      case .send(let request):
        send(request)
      case .replace(let epoch, let sequence, let hash, let document):
        replace(epoch: epoch, sequence: sequence, hash: hash, document: document)
      case .apply(let delta):
        do {
          publish(try model.apply(patch: delta.patch))
          if let epoch = sync.epoch { for observer in deltaObservers { observer(epoch, delta) } }
        } catch {
          counters.applyFailures += 1
          log.error("delta \(delta.sequence) does not apply to the replica (\(error)); resyncing")
          perform(sync.failedToApply())
          return
        }
      case .verify(let hash):
        if model.stateHash() != hash {
          log.error("state hash differs from the leader's at \(sync.sequence); resyncing")
          perform(sync.diverged())
          return
        }
      case .reconnect(let reason):
        reconnect(because: reason)
        return
      }
    }
    settleVisible()
  }

  private func replace(epoch: Epoch, sequence: UInt64, hash: UInt64, document: Frame) {
    let state: State
    do {
      state = try model.reset(document: document)
    } catch {
      counters.applyFailures += 1
      log.error("the snapshot at \(sequence) does not decode: \(error)")
      if store == nil {
        fail(.refused(code: "snapshot", message: "the leader's snapshot does not decode: \(error)"))
      } else {
        perform(sync.failedToApply())
      }
      return
    }
    log.info("replica at epoch \(epoch) sequence \(sequence)")
    for waiting in awaitingVisibility where waiting.epoch != epoch {
      waiting.receipt.settle(.failure(.historyLost))
    }
    awaitingVisibility.removeAll { $0.epoch != epoch }
    publish(state)
  }

  /// Shows `state` to the replica's subscribers, making the store at the first snapshot.
  private func publish(_ state: State) {
    if let store {
      store.replaceState(state)
      return
    }
    let store = Store<State>(reducer: { (_: inout State, _: any Action) in }, state: state)
    self.store = store
    onJoined?(.success(store))
    onJoined = nil
  }

  /// Resolves the receipts whose sequence the replica now shows.
  func settleVisible() {
    guard let epoch = sync.epoch, !awaitingVisibility.isEmpty else { return }
    let sequence = sync.sequence
    awaitingVisibility.removeAll { waiting in
      guard waiting.epoch == epoch, waiting.sequence <= sequence else { return false }
      waiting.receipt.settle(.success(waiting.sequence))
      return true
    }
  }

  /// Fails the join (or stops a running follower) with `error`.
  func fail(_ error: FollowerError) {
    log.error("\(error)")
    stop(error)
  }
}
