import ZeroMQ

extension FollowerEngine {
  /// How many handshakes in a row may fail without detail (the leader closed the connection)
  /// before a follower with keys takes it for a leader that does not hold the pinned key.
  static var handshakeFailuresTolerated: Int { 3 }

  /// Watches the control connection's handshakes: a refusal by the leader's ZAP handler, or a
  /// mechanism mismatch (keys on one side only), stops the follower with
  /// ``FollowerError/authenticationFailed(_:)`` at once; with keys, so do a few failures in a
  /// row without detail (what a leader without the pinned key's secret causes). Retrying
  /// would be refused the same way.
  func watchHandshakes(of socket: Socket) {
    do {
      let monitor = try socket.monitor([.handshakeSucceeded, .handshakeFailed])
      scope.register(monitor.socket) { [weak self] _ in self?.handshakeEventsArrived() }
      dealerMonitor = monitor
    } catch {
      log.error("cannot watch the control connection's handshakes: \(error)")
    }
  }

  private func handshakeEventsArrived() {
    while !stopped, let monitor = dealerMonitor, let event = try? monitor.next(wait: .nonBlocking) {
      guard let reason = authenticationFailure(event) else { continue }
      log.error("the leader refused the connection: \(reason)")
      stop(.authenticationFailed(reason))
    }
  }

  /// The reason to stop for `event`, if it is one.
  private func authenticationFailure(_ event: MonitorEvent) -> String? {
    let keyed = configuration.security != nil
    switch event.kind {
    case .handshakeSucceeded:
      handshakeFailuresInARow = 0
      return nil
    case .handshakeFailedAuth:
      let name = configuration.security?.key.name ?? ""
      return "the leader's key store does not hold this follower's key \(name) (ZAP status "
        + "\(event.value)): ask the leader's operator to add it (`tandem keys add`)"
    case .handshakeFailedProtocol where event.value == 0x1100_0002:
      return keyed
        ? "the leader at \(configuration.leader) runs without CURVE keys; drop --key and "
          + "--leader-key to follow it"
        : "the leader at \(configuration.leader) requires CURVE keys: give this follower a key "
          + "pair and the leader's public key (--key, --leader-key)"
    case .handshakeFailedProtocol where keyed, .handshakeFailedNoDetail where keyed:
      handshakeFailuresInARow += 1
      guard handshakeFailuresInARow >= Self.handshakeFailuresTolerated else { return nil }
      return "the CURVE handshake with \(configuration.leader) failed \(handshakeFailuresInARow) "
        + "times in a row: the leader does not hold the secret key of the pinned leader key "
        + "\(configuration.security!.leaderKey.z85) (check --leader-key)"
    default:
      return nil
    }
  }
}
