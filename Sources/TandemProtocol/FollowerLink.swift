/// The follower's connection, as reported by ``FollowerEffect/connectionChanged(_:)``.
package enum FollowerLink: Equatable, Sendable {
  /// The replica is in step with the leader's history `epoch`, at `sequence`.
  case inStep(Epoch, sequence: UInt64)
  /// The connection to the leader was lost (and is being made again), for `reason`.
  case lost(reason: String)
}
