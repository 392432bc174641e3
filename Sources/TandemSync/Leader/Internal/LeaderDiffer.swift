import StatePatch
import Synchronization

/// The leader's differ, kept from one reduction to the next: each reduction's old state is the
/// previous one's new state, which the differ has already recorded, so each state is recorded
/// once instead of twice (see ``StatePatch/StateDiffer``).
///
/// The store's drainer calls it for one reduction at a time, so its lock is never contended.
final class LeaderDiffer: Sendable {
  private let differ = Mutex(StateDiffer())

  /// The patch from the canonical JSON of `old` to that of `new`.
  func patch<State: Encodable>(
    from old: State, to new: State
  ) throws(StateEncodingError) -> JSONPatch {
    try differ.withLock { differ throws(StateEncodingError) in
      try differ.patch(from: old, to: new)
    }
  }
}
