/// Why the follower's protocol stopped the follower.
package enum FollowerStopCause: Equatable, Sendable {
  /// The leader answered `ERROR` with a final code: another process took the client id over
  /// (``ErrorCode/superseded``), or it refuses this follower.
  case refused(code: ErrorCode, message: String)
}
