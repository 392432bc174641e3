/// What a follower's I/O shell must do, as ``FollowerProtocol`` decides it: the one list of
/// effects every input of the follower's protocol returns, carried out in order.
package enum FollowerEffect: Equatable, Sendable {
  /// Send this control request to the leader (`HELLO`, `PING`, `CATCHUP`, `SNAPSHOT`).
  case send(ControlRequest)
  /// Send these actions to the leader, in order: with `DISPATCH-QUIET` when `quietly`. One the
  /// control socket cannot queue goes back to the outbox with the ones after it
  /// (``FollowerProtocol/unsent(from:)``).
  case dispatch([ForwardedAction], quietly: Bool)
  /// Read the updates socket at this endpoint (as the leader announced it), instead of any
  /// other.
  case subscribe(String)
  /// Drop both sockets and join again after a back-off; the rest of the effects are void.
  case reconnect(reason: String)
  /// Stop for good; the rest of the effects are void.
  case stop(FollowerStopCause)
  /// Settle the receipt with the action's sequence, or why it failed.
  case settle(ReceiptID, Result<UInt64, ReceiptFailure>)
  /// Replace the replica with this snapshot, then report it with
  /// ``FollowerProtocol/replicaReplaced(epoch:sequence:now:)`` (or
  /// ``FollowerProtocol/snapshotFailed(now:)``).
  case replace(Epoch, sequence: UInt64, stateHash: UInt64, document: Frame)
  /// Apply this delta (the next in order) to the replica, then report it with
  /// ``FollowerProtocol/replicaApplied(_:dropped:now:)``; deltas may be applied and reported
  /// together.
  case apply(Delta)
  /// Compare the replica's state hash with this one (the leader's at the replica's sequence);
  /// report a difference with ``FollowerProtocol/replicaDiverged(now:)``.
  case verify(stateHash: UInt64)
  /// Write a log line; `peerControlled` lines are rate-limited.
  case log(LogLevel, String, peerControlled: Bool)
  /// The follower's connection changed: in step with the leader, or lost.
  case connectionChanged(FollowerLink)

  /// The level of a ``log(_:_:peerControlled:)`` line.
  package enum LogLevel: Equatable, Sendable {
    case debug, info, error
  }
}
