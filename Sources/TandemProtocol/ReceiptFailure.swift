/// Why a receipt failed, as the follower's protocol knows it.
package enum ReceiptFailure: Error, Equatable, Sendable {
  /// The leader refused the action.
  case rejected(Rejection)
  /// The leader forgot the client while the action was unanswered: it may have been applied.
  case outcomeUnknown
  /// The leader's history changed after it acknowledged the action, before the replica showed
  /// it.
  case historyLost
  /// The follower stopped: because of `cause`, or (nil) for the reason its shell stopped it.
  case stopped(FollowerStopCause?)
}
