import Synchronization
import Tandem
import TandemProtocol
import ZeroMQ

/// A follower's I/O shell, living on its loop thread: the SUB and DEALER sockets, the timers,
/// the replica store and the receipts. The protocol's rules are ``FollowerProtocol``'s: the
/// engine feeds it what happens and carries out its effects (`FollowerEngine+Handling`).
final class FollowerEngine<Model: ReplicaModel> {
  typealias State = Model.State

  let configuration: FollowerConfiguration
  /// The protocol, shared with the threads that queue actions.
  let shared: SharedFollowerProtocol
  let scope: LoopScope
  let log: TandemLogger
  var model: Model
  /// The replica store, made at the first snapshot.
  var store: Store<State>?
  /// Called once: with the store when the first snapshot is applied, or with why the join failed.
  var onJoined: ((Result<Store<State>, FollowerError>) -> Void)?
  var dealer: Socket?
  var subscriber: Socket?
  /// The monitor of the control connection's handshake (see `FollowerEngine+Authentication`).
  var dealerMonitor: Monitor?
  /// What the control connection's handshake events mean.
  var handshakeWatch: HandshakeWatch
  var nextDelay: Duration
  var stopped = false
  /// Why the follower stopped, once it has.
  var stopReason = FollowerError.stopped
  /// Whether a retry of ``flushOutbox()`` is scheduled (see `retryFlushSoon`).
  var flushRetryScheduled = false
  /// Control requests the control socket could not queue, sent before any action at the next
  /// ``flushOutbox()``; they belong to the connection, and go with it.
  var heldRequests: [ControlRequest] = []
  /// Deltas the protocol asked to apply that are not in the replica store yet: empty whenever
  /// the loop is idle (see `perform(_:settling:)`).
  var pendingDeltas: [Delta] = []
  var counters = FollowerCounters()
  /// How long each action took from `send` to the replica showing it.
  let sendToApplied = MetricHistogram()
  /// Called with each delta applied to the replica, in order (not with snapshots).
  var deltaObservers: [(Epoch, Delta) -> Void] = []
  /// Called once when the follower stops.
  var stopObservers: [() -> Void] = []
  /// Whether the follower is in step with the leader, or lost it; nil until the join is done.
  var connection: FollowerConnection?
  /// Called with each change of ``connection``.
  var connectionObservers: [(FollowerConnection) -> Void] = []

  init(
    scope: LoopScope, configuration: FollowerConfiguration, model: Model,
    shared: SharedFollowerProtocol
  ) {
    self.scope = scope
    self.configuration = configuration
    self.model = model
    self.shared = shared
    self.log = TandemLogger(label: "follower[\(configuration.clientID)]")
    self.nextDelay = configuration.reconnectDelay
    self.handshakeWatch = HandshakeWatch(
      leader: configuration.leader, security: configuration.security)
    // The loop's handlers and timers hold the engine weakly: a follower released without
    // `stop()` lets its engine go on the loop thread after stopping it, and the loop's last
    // turn may still fire a timer then.
    scope.schedule(every: configuration.silenceLimit / 4) { [weak self] in self?.tick() }
  }

  /// The protocol's join and replica position (a copy, for statistics).
  var sync: ReplicaSync { shared.withLock { $0.core.sync } }

  /// The leader endpoint to join: the configured leader, a standby's redirect, or the next
  /// configured endpoint after a silence (see ``LeaderEndpoints``).
  var currentLeader: String { shared.withLock { $0.core.leaders.current } }

  /// Connects the control socket and says hello; the updates socket follows the `WELCOME`.
  func connect() {
    guard !stopped else { return }
    closeSockets()
    do {
      let dealer = try scope.makeSocket(.dealer)
      try dealer.set(.linger, .zero)
      try configuration.security?.apply(to: dealer)
      watchHandshakes(of: dealer)
      // A routing id of this connection's own, which ZeroMQ's automatic reconnects keep: the
      // leader then goes on accepting this connection's actions (it owns the client id).
      try dealer.set(.routingID, Self.connectionRoutingID())
      let leader = currentLeader
      guard let endpoint = Endpoint(parsing: leader) else {
        fail(.invalidEndpoint(leader))
        return
      }
      try dealer.connect(endpoint)
      scope.register(dealer) { [weak self] _ in self?.repliesArrived() }
      self.dealer = dealer
    } catch {
      log.error("cannot connect to \(currentLeader): \(error)")
      scheduleReconnect()
      return
    }
    perform(shared.step { $0.connected(now: .now) })
  }

  /// Connects the updates socket to the endpoint the leader announced.
  func subscribe(to announced: String) {
    if let subscriber {
      scope.unregister(subscriber)
      subscriber.close()
      self.subscriber = nil
    }
    let address = Self.resolve(announced, controlEndpoint: currentLeader)
    do {
      guard let endpoint = Endpoint(parsing: address) else {
        throw FollowerError.invalidEndpoint(address)
      }
      let subscriber = try scope.makeSocket(.sub)
      try subscriber.set(.linger, .zero)
      try configuration.security?.apply(to: subscriber)
      try subscriber.set(.receiveHighWaterMark, configuration.updatesHighWaterMark)
      try subscriber.subscribe(to: "")
      try subscriber.connect(endpoint)
      scope.register(subscriber) { [weak self] _ in self?.updatesArrived() }
      self.subscriber = subscriber
    } catch {
      reconnect(because: "cannot subscribe to \(address): \(error)")
    }
  }

  /// Drops both sockets and joins again after the back-off delay.
  func reconnect(because reason: String) {
    log.info("reconnecting: \(reason)")
    counters.reconnects += 1
    closeSockets()
    // Once per outage: the attempts that fail while the leader is away lose nothing more.
    perform(shared.step { $0.disconnected(reason: reason) })
    scheduleReconnect()
  }

  /// Stops for good: closes the sockets and fails what waits.
  func stop(_ error: FollowerError = .stopped) {
    guard !stopped else { return }
    stopped = true
    stopReason = error
    closeSockets()
    let step = shared.stop(because: error)
    for (effect, receipt) in zip(step.effects, step.receipts) {
      guard case .settle(_, .failure(let failure)) = effect else { continue }
      receipt?.settle(.failure(FollowerError(failure, stopReason: error)))
    }
    onJoined?(.failure(error))
    onJoined = nil
    for observer in stopObservers { observer() }
    stopObservers.removeAll()
    deltaObservers.removeAll()
    connectionObservers.removeAll()
  }

  /// ``connection`` as of now: while connected, at the replica's current position.
  var currentConnection: FollowerConnection? {
    guard case .connected = connection else { return connection }
    let sync = self.sync
    guard let epoch = sync.epoch else { return connection }
    return .connected(epoch: epoch, sequence: sync.sequence)
  }

  /// Tells the connection observers of `link`.
  func changeConnection(to link: FollowerLink) {
    let new: FollowerConnection =
      switch link {
      case .inStep(let epoch, let sequence): .connected(epoch: epoch, sequence: sequence)
      case .lost(let reason): .lost(reason: reason)
      }
    connection = new
    for observer in connectionObservers { observer(new) }
  }

  /// The follower's timer: notices a silent leader or a stalled join, pings, and resends
  /// what went unanswered. Between connections (a reconnect is scheduled) there is nothing to
  /// watch: the silence of a leader it is not connected to must not schedule more reconnects.
  private func tick() {
    guard !stopped, dealer != nil else { return }
    // What waits unread is not silence: after a pause of this process (SIGSTOP, a stalled
    // machine) the timer and the leader's messages are due at once, and the messages come
    // first, so that the deltas answering this follower's actions are not dropped with the
    // sockets of a reconnect.
    updatesArrived()
    repliesArrived()
    guard !stopped, dealer != nil else { return }
    perform(shared.step { $0.tick(now: .now) })
  }

  private func scheduleReconnect() {
    let delay = nextDelay
    nextDelay = min(nextDelay * 2, configuration.maximumReconnectDelay)
    scope.schedule(after: delay) { [weak self] in self?.connect() }
  }

  private func closeSockets() {
    if let dealerMonitor {
      scope.unregister(dealerMonitor.socket)
      dealerMonitor.stop()
      self.dealerMonitor = nil
    }
    for socket in [dealer, subscriber].compactMap({ $0 }) {
      scope.unregister(socket)
      socket.close()
    }
    dealer = nil
    subscriber = nil
    heldRequests.removeAll()
  }

  /// A random routing id for one control connection: 16 bytes, the first never zero (ZeroMQ
  /// reserves those for the ids it makes up).
  static func connectionRoutingID() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[0] = UInt8.random(in: 1...255, using: &generator)
    return bytes
  }

  /// `announced` with a wildcard host (`0.0.0.0`, `*`, `[::]`) replaced by the control
  /// endpoint's host.
  static func resolve(_ announced: String, controlEndpoint: String) -> String {
    guard announced.hasPrefix("tcp://"), controlEndpoint.hasPrefix("tcp://") else {
      return announced
    }
    let address = announced.dropFirst("tcp://".count)
    guard let colon = address.lastIndex(of: ":") else { return announced }
    let host = address[..<colon]
    guard ["0.0.0.0", "*", "[::]", "::"].contains(host) else { return announced }
    let control = controlEndpoint.dropFirst("tcp://".count)
    guard let controlColon = control.lastIndex(of: ":") else { return announced }
    return "tcp://\(control[..<controlColon])\(address[colon...])"
  }
}

/// A follower's event counts.
struct FollowerCounters {
  var reconnects = 0
  var sendsDeferred = 0
  var malformedMessages = 0
  var applyFailures = 0
}
