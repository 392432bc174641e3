/// Why the follower's outbox did not queue an action; nothing was queued.
package enum OutboxRefusal: Error, Sendable, Equatable {
  /// The outbox already holds `capacity` unanswered actions.
  case outboxFull(capacity: Int)
  /// The action's payload is larger than the leader's `WELCOME` said it accepts.
  case actionTooLarge(bytes: Int, limit: Int)
  /// The action's tag is longer than the leader's `WELCOME` said it accepts.
  case tagTooLong(String, limit: Int)
  /// The follower stopped: the outbox queues nothing any more.
  case stopped
}
