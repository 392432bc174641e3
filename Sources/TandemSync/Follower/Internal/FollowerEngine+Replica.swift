import Tandem
import TandemProtocol

/// How the engine changes the replica store: snapshots replace its state, deltas change it where
/// it lies.
extension FollowerEngine {
  /// The most deltas applied to a replica store as one change.
  static var pendingDeltaLimit: Int { 64 }

  /// Replaces the replica with the snapshot `document` at `sequence`; receipts of another epoch
  /// fail, as their history is gone. Returns false when the snapshot does not decode (the
  /// replica stays as it was, and a resync has begun, or the join failed).
  func replace(epoch: Epoch, sequence: UInt64, hash: UInt64, document: Frame) -> Bool {
    let state: State
    do {
      state = try model.reset(document: document)
    } catch {
      counters.applyFailures += 1
      log.rateLimited(.error, "the snapshot at \(sequence) does not decode: \(error)")
      if store == nil {
        fail(.undecodableSnapshot("\(error)"))
      } else {
        perform(sync.failedToApply())
      }
      return false
    }
    log.info("replica at epoch \(epoch) sequence \(sequence)")
    for waiting in awaitingVisibility where waiting.epoch != epoch {
      waiting.receipt.settle(.failure(.historyLost))
    }
    awaitingVisibility.removeAll { $0.epoch != epoch }
    publish(state)
    // The snapshot may hold actions sent quietly whose deltas this follower never saw.
    let rewound = outbox.withLock { guarded in
      guarded.outbox.followReplica(into: epoch, at: sequence)
      return guarded.outbox.rewindIfSentQuietly()
    }
    if rewound { flushOutbox() }
    return true
  }

  /// Applies the deltas in ``pendingDeltas`` to the replica store, then tells the delta
  /// observers; returns false when one did not apply (the replica holds the deltas before it,
  /// and a resync has begun).
  @discardableResult
  func applyPendingDeltas() -> Bool {
    guard !pendingDeltas.isEmpty else { return true }
    let deltas = pendingDeltas
    pendingDeltas.removeAll(keepingCapacity: true)
    let (applied, failure) = applyToReplica(deltas)
    if let epoch = sync.epoch {
      for delta in deltas[..<applied] {
        for observer in deltaObservers { observer(epoch, delta) }
      }
      // A delta of this follower's own action answers it as its ACK would, and the replica
      // already shows it: the receipt resolves now rather than when the ACK arrives. Its own:
      // its client id and the generation this process was handed, not another process's that
      // took the id over (whose numbers may be the same).
      let settled = outbox.withLock { guarded in
        guarded.outbox.applied(
          in: deltas[..<applied], epoch: epoch, client: configuration.clientID,
          generation: sync.generation
        ).compactMap { settled in
          guarded.receipts.removeValue(forKey: settled.receipt).map { ($0, settled.sequence) }
        }
      }
      for (receipt, sequence) in settled {
        receipt.settle(.success(sequence))
        sendToApplied.observe(.now - receipt.sentAt)
      }
    }
    guard let failure else { return true }
    counters.applyFailures += 1
    let sequences =
      applied + 1 == deltas.count
      ? "delta \(deltas[applied].sequence) does"
      : "deltas \(deltas[applied].sequence)...\(deltas[deltas.count - 1].sequence) do"
    log.rateLimited(.error, "\(sequences) not apply to the replica (\(failure)); resyncing")
    perform(sync.failedToApply())
    return false
  }

  /// Applies `deltas` in order to the replica store's state where it lies (no copy of what they
  /// do not touch). While the store has subscribers each delta is one change they are notified
  /// of; without subscribers (checked as each change begins, so a subscriber that arrives
  /// meanwhile sees every change after its first state) the rest become one change. Returns how
  /// many applied, and why the next one did not (that change left the state as it was).
  private func applyToReplica(_ deltas: [Delta]) -> (applied: Int, failure: (any Error)?) {
    guard let store else { preconditionFailure("a delta applied before the first snapshot") }
    var applied = 0
    var failure: (any Error)?
    while applied < deltas.count, failure == nil {
      store.modifyState { state in
        let end = store.hasSubscribers ? applied + 1 : deltas.count
        do {
          try self.model.apply(patches: deltas[applied..<end].map(\.patch), to: &state)
          applied = end
          return true
        } catch {
          failure = error
          return false
        }
      }
    }
    return (applied, failure)
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

}
