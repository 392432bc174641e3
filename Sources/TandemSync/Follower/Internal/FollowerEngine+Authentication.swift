import ZeroMQ

extension FollowerEngine {
  /// Watches the control connection's handshakes (``HandshakeWatch``): a leader that refuses
  /// this follower's keys stops it with ``FollowerError/authenticationFailed(_:)``, since
  /// trying again would be refused the same way.
  func watchHandshakes(of socket: Socket) {
    do {
      let monitor = try socket.monitor(HandshakeWatch.events)
      scope.register(monitor.socket) { [weak self] _ in self?.handshakeEventsArrived() }
      dealerMonitor = monitor
    } catch {
      log.error("cannot watch the control connection's handshakes: \(error)")
    }
  }

  private func handshakeEventsArrived() {
    while !stopped, let monitor = dealerMonitor, let event = try? monitor.next(wait: .nonBlocking) {
      guard let reason = handshakeWatch.authenticationFailure(event) else { continue }
      log.error("the leader refused the connection: \(reason)")
      stop(.authenticationFailed(reason))
    }
  }
}
