import Tandem
import TandemProtocol

/// How the engine changes the replica store: snapshots replace its state, deltas change it where
/// it lies; each change is reported to the protocol.
extension FollowerEngine {
  /// The most deltas applied to a replica store as one change.
  static var pendingDeltaLimit: Int { 64 }

  /// Replaces the replica with the snapshot `document` at `sequence`, and tells the protocol.
  /// Returns false when the snapshot does not decode (the replica stays as it was, and a
  /// resync has begun, or the join failed).
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
        perform(shared.step { $0.snapshotFailed(now: .now) })
      }
      return false
    }
    log.info("replica at epoch \(epoch) sequence \(sequence)")
    // Receipts of another history fail before the replica shows the new one.
    let step = shared.step { $0.replicaReplaced(epoch: epoch, sequence: sequence, now: .now) }
    publish(state)
    perform(step)
    return !stopped
  }

  /// Applies the deltas in ``pendingDeltas`` to the replica store, tells the delta observers,
  /// and reports them to the protocol; returns false when one did not apply (the replica holds
  /// the deltas before it, and a resync has begun).
  @discardableResult
  func applyPendingDeltas() -> Bool {
    guard !pendingDeltas.isEmpty else { return true }
    // Taken out whole, and its buffer handed back emptied when nothing was queued meanwhile:
    // a copy emptied in place would allocate a new buffer at every update.
    var deltas: [Delta] = []
    swap(&deltas, &pendingDeltas)
    defer {
      if pendingDeltas.isEmpty {
        deltas.removeAll(keepingCapacity: true)
        swap(&deltas, &pendingDeltas)
      }
    }
    let (applied, failure) = applyToReplica(deltas)
    if !deltaObservers.isEmpty, let epoch = sync.epoch {
      for delta in deltas[..<applied] {
        for observer in deltaObservers { observer(epoch, delta) }
      }
    }
    if let failure {
      counters.applyFailures += 1
      let sequences =
        applied + 1 == deltas.count
        ? "delta \(deltas[applied].sequence) does"
        : "deltas \(deltas[applied].sequence)...\(deltas[deltas.count - 1].sequence) do"
      log.rateLimited(.error, "\(sequences) not apply to the replica (\(failure)); resyncing")
    }
    perform(
      shared.step {
        $0.replicaApplied(deltas[..<applied], dropped: deltas.count - applied, now: .now)
      }, settling: false)
    return failure == nil && !stopped
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
