import TandemProtocol
import ZeroMQ

extension LeaderSecurity {
  /// Makes `socket` a CURVE server with the leader's key pair, whose peers the ZAP handler
  /// checks (domain `tandem`); leaves it plain without keys.
  static func secure(_ socket: Socket, with security: LeaderSecurity?) throws(ZMQError) {
    guard let security, let secretKey = security.key.secretKey else { return }
    try socket.set(.curveServer, true)
    try socket.set(.curveSecretKey, secretKey)
    try socket.set(.zapDomain, "tandem")
  }
}

extension LeaderEngine {

  /// Counts and logs (rate-limited) the handshake failures a socket monitor reports.
  func monitorEventsArrived(_ monitor: Monitor) {
    while let event = try? monitor.next(wait: .nonBlocking) {
      guard let reason = handshakeFailures.count(event) else { continue }
      log.rateLimited(
        .warning,
        "handshake failed on \(event.endpoint) (\(reason)): "
          + HandshakeFailures.explanation(of: reason))
    }
  }

  /// Reads the key store again (see ``Leader/reloadKeys()``) and, shortly after (so that the
  /// answer to a `RELOAD-KEYS` leaves first), cuts the connections of the keys it dropped.
  func reloadKeys() -> Result<(count: Int, removed: [String]), KeyStoreError> {
    guard let keyRing else { return .success((0, [])) }
    do {
      let result = try keyRing.reload()
      log.info(
        "reloaded the key store \(keyRing.path): \(result.count) keys"
          + (result.removed.isEmpty ? "" : ", dropped \(result.removed.joined(separator: ", "))"))
      if !result.removed.isEmpty {
        scope.schedule(after: Self.cutDelay) { [weak self] in
          self?.cutConnections(of: result.removed)
        }
      }
      return .success(result)
    } catch {
      log.error("kept the key store as it was: \(error)")
      return .failure(error)
    }
  }
}

extension LeaderEngine {
  /// How long after a reload the connections are cut: time for the replies already queued
  /// (the `KEYS` answer) to be written, as closing a socket drops what it still holds.
  static var cutDelay: Duration { .milliseconds(100) }

  /// Cuts every connection, so that those of the keys `names` end (libzmq closes no single
  /// connection of a socket): both sockets are closed and made anew at the endpoints they bound.
  /// Every follower's ZeroMQ connection reconnects on its own and is authenticated again; the
  /// dropped keys' fail the handshake. What was queued for the old connections is lost, as at
  /// any reconnect: followers resend and catch up.
  func cutConnections(of names: [String]) {
    log.info(
      "cutting every connection to end those of \(names.joined(separator: ", ")); the other "
        + "followers reconnect")
    for socket in [updates, control] + monitors.map(\.socket) { scope.unregister(socket) }
    for monitor in monitors { monitor.stop() }
    do {
      let bound = boundEndpoints
      try? updates.unbind(bound.updates)
      updates.close()
      try? control.unbind(bound.control)
      control.close()
      let (newUpdates, updatesMonitor) = try Self.makeUpdatesSocket(scope, configuration)
      try Self.rebind(newUpdates, to: bound.updates)
      let (newControl, controlMonitor) = try Self.makeControlSocket(scope, configuration)
      try Self.rebind(newControl, to: bound.control)
      updates = newUpdates
      control = newControl
      monitors = [updatesMonitor, controlMonitor]
      registerSockets()
    } catch {
      // The leader cannot serve without its sockets: stop rather than run deaf.
      fatalError("Tandem: the leader could not bind its sockets again after cutting them: \(error)")
    }
  }

  /// Binds `socket` to the endpoint the socket before it held: the old listener closes on
  /// libzmq's I/O thread, so the port may be busy for a moment.
  private static func rebind(_ socket: Socket, to endpoint: Endpoint) throws(ZMQError) {
    let deadline = ContinuousClock.now + .seconds(2)
    while true {
      do {
        try socket.bind(endpoint)
        return
      } catch  where error.code == .addressInUse && ContinuousClock.now < deadline {
        _ = try socket.poll([], timeout: .milliseconds(1))
      }
    }
  }
}
