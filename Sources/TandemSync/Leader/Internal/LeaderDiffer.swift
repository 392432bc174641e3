import StatePatch
import Synchronization
import TandemProtocol

/// The leader's differ, kept from one delta to the next: each delta's old state is the previous
/// one's new state, which the differ has already recorded, so each state is recorded once
/// instead of twice (see ``StatePatch/StateDiffer``).
///
/// Either the store's drainer calls it for one reduction at a time (a delta per action) or the
/// leader's loop for one batch at a time (grouped deltas), so its lock is never contended.
final class LeaderDiffer: Sendable {
  private let differ = Mutex(StateDiffer())

  /// The canonical bytes of the patch from the canonical JSON of `old` to that of `new`.
  func patch<State: Encodable>(from old: State, to new: State) -> Frame {
    do {
      return try differ.withLock { differ throws(StateEncodingError) in
        try differ.patch(from: old, to: new)
      }.canonicalBytes()
    } catch {
      fatalError("Tandem: the leader's state cannot be encoded canonically: \(error)")
    }
  }
}
