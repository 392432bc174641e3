/// Why a batch's commit leaves the leader unable to tell which of its actions are applied
/// (the Protocol article, "When a leader may acknowledge"): the leader must not answer them.
package enum UndecidedCommit: Sendable, Equatable {
  /// The journal refused the append for its fencing epoch: another leader holds the lease.
  /// Nothing of the batch was stored, but this leader is deposed.
  case fenced
  /// The commit got no answer (the connection to the journal was lost or timed out): it may
  /// still commit. The message says what failed.
  case outcomeUnknown(String)
}
