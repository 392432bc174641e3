import Synchronization

/// What the store's drainer and the leader's I/O loop share: the sequence, the newest state,
/// the exactly-once ledger, and the deltas recorded but not yet published.
///
/// The drainer records each reduction here (``record(_:)``) in the store's total order; the
/// loop takes what was recorded (``takeUnpublished()``), commits and publishes it. Both sides
/// hold the lock only for bookkeeping, never while encoding or sending.
final class LeaderHistory<State: Sendable>: Sendable {
  struct Contents {
    var epoch: Epoch
    /// The sequence of the newest recorded state.
    var sequence: UInt64
    /// The newest recorded state.
    var state: State
    var ledger: ClientLedger
    /// Recorded deltas the loop has not published yet, in order.
    var unpublished: [Delta] = []
  }

  /// The deltas taken for publishing, and the state and ledger after the last of them.
  struct Batch {
    var epoch: Epoch
    var deltas: [Delta]
    var sequence: UInt64
    var state: State
    var ledger: ClientLedger
  }

  private let contents: Mutex<Contents>

  init(epoch: Epoch, sequence: UInt64, state: State, ledger: ClientLedger) {
    contents = Mutex(Contents(epoch: epoch, sequence: sequence, state: state, ledger: ledger))
  }

  /// Records one reduction: the next sequence, its delta, the new state and, for a follower's
  /// action, the ledger entry. Returns the delta and whether it is the first unpublished one
  /// (so the caller wakes the loop once per batch).
  func record(origin: Origin, tag: String, patch: Frame, state: State) -> (Delta, wakeLoop: Bool) {
    contents.withLock { contents in
      contents.sequence += 1
      let delta = Delta(sequence: contents.sequence, origin: origin, tag: tag, patch: patch)
      contents.unpublished.append(delta)
      contents.state = state
      if !origin.isLeader {
        contents.ledger.recordApplied(
          client: origin.client, number: origin.number, sequence: contents.sequence)
      }
      return (delta, contents.unpublished.count == 1)
    }
  }

  /// Takes every recorded, unpublished delta with the state after them.
  func takeUnpublished() -> Batch {
    contents.withLock { contents in
      let deltas = contents.unpublished
      contents.unpublished.removeAll(keepingCapacity: true)
      contents.ledger.evictIdle(now: contents.sequence)
      return Batch(
        epoch: contents.epoch, deltas: deltas, sequence: contents.sequence, state: contents.state,
        ledger: contents.ledger)
    }
  }

  /// Reads the contents under the lock.
  func read<Result>(_ body: (borrowing Contents) -> Result) -> Result {
    contents.withLock { body($0) }
  }

  /// Changes the contents under the lock.
  func update<Result>(_ body: (inout Contents) -> Result) -> Result {
    contents.withLock { body(&$0) }
  }
}
