import ZeroMQ

/// Judges the handshake events of a connection to a leader (its socket monitor's): which mean
/// that the leader refused this side's keys, or that the two sides disagree on CURVE. Used by
/// followers and by the one-shot requests of ``LeaderControl``.
struct HandshakeWatch {
  /// How many handshakes in a row may fail without detail (the leader closed the connection)
  /// before a side with keys takes it for a leader that does not hold the pinned key.
  static let failuresTolerated = 3

  let leader: String
  let security: FollowerSecurity?
  private var failuresInARow = 0

  init(leader: String, security: FollowerSecurity?) {
    self.leader = leader
    self.security = security
  }

  /// The events a monitor must report for ``authenticationFailure(_:)``.
  static let events: MonitorEvent.Kind = [.handshakeSucceeded, .handshakeFailed]

  /// Why the leader refused the connection, if `event` says so: its ZAP handler refused the
  /// key, one side has keys and the other none, or (with keys) several handshakes failed in a
  /// row, as they do against a leader that does not hold the secret of the pinned key.
  mutating func authenticationFailure(_ event: MonitorEvent) -> String? {
    switch event.kind {
    case .handshakeSucceeded:
      failuresInARow = 0
      return nil
    case .handshakeFailedAuth:
      let name = security?.key.name ?? ""
      return "the leader's key store does not hold the key \(name) (ZAP status "
        + "\(event.value)): ask the leader's operator to add it with `tandem keys add`"
    case .handshakeFailedProtocol where event.value == 0x1100_0002:
      return security != nil
        ? "the leader at \(leader) runs without CURVE keys: follow it without --key and "
          + "--leader-key"
        : "the leader at \(leader) requires CURVE keys: give a key pair and the leader's public "
          + "key (--key FILE --leader-key KEY)"
    case .handshakeFailedNoDetail where security == nil:
      // A plain leader never closes a plain handshake; a keyed one closes it, and which side
      // sees the mechanism mismatch first is a race: often the follower only sees the close.
      failuresInARow += 1
      guard failuresInARow >= Self.failuresTolerated else { return nil }
      return "the leader at \(leader) closed \(failuresInARow) handshakes in a row: it requires "
        + "CURVE keys; give a key pair and the leader's public key (--key FILE --leader-key KEY)"
    case .handshakeFailedProtocol where security != nil,
      .handshakeFailedNoDetail where security != nil:
      failuresInARow += 1
      guard failuresInARow >= Self.failuresTolerated, let security else { return nil }
      return "the CURVE handshake with \(leader) failed \(failuresInARow) times in a row: the "
        + "leader does not hold the secret key of the pinned leader key "
        + "\(security.leaderKey.z85) (check --leader-key)"
    default:
      return nil
    }
  }
}
