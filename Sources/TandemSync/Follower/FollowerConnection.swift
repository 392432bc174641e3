import TandemProtocol

/// Whether a follower is in step with its leader, as ``Follower/connectionChanges()`` and
/// ``JSONFollower/connectionChanges()`` report it.
///
/// A follower loses its leader when the leader stays silent past
/// ``FollowerConfiguration/silenceLimit`` (a leader killed, or a network down), says it is
/// stopping, or refuses the follower's requests; it then reconnects with back-off, for as long as
/// it runs, and is connected again once its replica is back in step: after a catch-up when the
/// leader kept its history, after a new snapshot when it did not. A leader restarted within the
/// silence limit (killed, and started again at once) may not be noticed as lost: when it comes
/// back without its history, the follower reports `connected` at its new epoch without a `lost`
/// before it.
///
/// ```swift
/// for await connection in try await follower.connectionChanges() {
///   switch connection {
///   case .connected(let epoch, let sequence): print("following \(epoch) from \(sequence)")
///   case .lost(let reason): print("lost the leader (\(reason)); reconnecting")
///   }
/// }
/// ```
public enum FollowerConnection: Sendable, Equatable {
  /// The follower is in step with the leader: its replica shows `sequence` of the history
  /// `epoch` (when it rejoined, or, as the first element of a stream, when the stream began),
  /// and deltas flow. A new `epoch` means the replica was replaced by a snapshot
  /// of another history (a leader restarted without its journal): after a `lost`, or on its own
  /// when the restart went unnoticed.
  case connected(epoch: Epoch, sequence: UInt64)
  /// The follower lost its leader and is reconnecting; `reason` says why, in words for a log
  /// (e.g. "the leader has been silent for more than 2.0 seconds"). The replica keeps its last
  /// state meanwhile, and receipts wait.
  case lost(reason: String)
}
