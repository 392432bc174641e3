import Synchronization
import Tandem
import ZeroMQ

/// A follower's I/O side, living on its loop thread: the SUB and DEALER sockets, the replica,
/// the join and recovery rules (``ReplicaSync``), and the forwarding of the outbox. Replies and
/// effects are handled in `FollowerEngine+Handling`.
final class FollowerEngine<Model: ReplicaModel> {
  typealias State = Model.State

  let configuration: FollowerConfiguration
  let fingerprint: String
  let outbox: FollowerOutbox
  let scope: LoopScope
  let log: Logger
  var model: Model
  var sync: ReplicaSync
  /// The replica store, made at the first snapshot.
  var store: Store<State>?
  /// Called once: with the store when the first snapshot is applied, or with why the join failed.
  var onJoined: ((Result<Store<State>, FollowerError>) -> Void)?
  var dealer: Socket?
  var subscriber: Socket?
  var nextDelay: Duration
  var stopped = false
  /// Whether a retry of ``flushOutbox()`` is scheduled (see `retryFlushSoon`).
  var flushRetryScheduled = false
  /// Deltas the sync rules accepted that are not in the replica store yet: empty whenever the
  /// loop is idle (see `perform(_:settling:)`).
  var pendingDeltas: [Delta] = []
  /// Acknowledged receipts waiting for the replica to show their sequence.
  var awaitingVisibility: [(epoch: Epoch, sequence: UInt64, receipt: Receipt)] = []
  var counters = FollowerCounters()
  /// Called with each delta applied to the replica, in order (not with snapshots).
  var deltaObservers: [(Epoch, Delta) -> Void] = []
  /// Called once when the follower stops.
  var stopObservers: [() -> Void] = []

  init(
    scope: LoopScope, configuration: FollowerConfiguration, fingerprint: String, model: Model,
    outbox: FollowerOutbox
  ) {
    self.scope = scope
    self.configuration = configuration
    self.fingerprint = fingerprint
    self.model = model
    self.outbox = outbox
    self.log = Logger(label: "follower[\(configuration.clientID)]")
    self.sync = ReplicaSync(silenceLimit: configuration.silenceLimit, now: .now)
    self.nextDelay = configuration.reconnectDelay
    scope.schedule(every: configuration.silenceLimit / 4) { [unowned self] in self.tick() }
  }

  /// Connects the control socket and says hello; the updates socket follows the `WELCOME`.
  func connect() {
    guard !stopped else { return }
    do {
      let dealer = try scope.makeSocket(.dealer)
      try dealer.set(.linger, .zero)
      // A routing id of this connection's own, which ZeroMQ's automatic reconnects keep: the
      // leader then goes on accepting this connection's actions (it owns the client id).
      try dealer.set(.routingID, Self.connectionRoutingID())
      guard let endpoint = Endpoint(parsing: configuration.leader) else {
        fail(.invalidEndpoint(configuration.leader))
        return
      }
      try dealer.connect(endpoint)
      scope.register(dealer) { [unowned self] _ in self.repliesArrived() }
      self.dealer = dealer
    } catch {
      log.error("cannot connect to \(configuration.leader): \(error)")
      scheduleReconnect()
      return
    }
    perform(
      sync.connected(client: configuration.clientID, fingerprint: fingerprint, now: .now))
  }

  /// Connects the updates socket to the endpoint the leader announced.
  func subscribe(to announced: String) {
    let address = Self.resolve(announced, controlEndpoint: configuration.leader)
    do {
      guard let endpoint = Endpoint(parsing: address) else {
        throw FollowerError.invalidEndpoint(address)
      }
      let subscriber = try scope.makeSocket(.sub)
      try subscriber.set(.linger, .zero)
      try subscriber.set(.receiveHighWaterMark, configuration.updatesHighWaterMark)
      try subscriber.subscribe(to: "")
      try subscriber.connect(endpoint)
      scope.register(subscriber) { [unowned self] _ in self.updatesArrived() }
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
    outbox.withLock { $0.connectionClosed() }
    scheduleReconnect()
  }

  /// Stops for good: closes the sockets and fails what waits.
  func stop(_ error: FollowerError = .stopped) {
    guard !stopped else { return }
    stopped = true
    closeSockets()
    outbox.withLock { $0.failAll(error) }
    for waiting in awaitingVisibility { waiting.receipt.settle(.failure(error)) }
    awaitingVisibility.removeAll()
    onJoined?(.failure(error))
    onJoined = nil
    for observer in stopObservers { observer() }
    stopObservers.removeAll()
    deltaObservers.removeAll()
  }

  /// Sends the outbox's unsent actions to the leader, in number order: quietly (no `ACK` for an
  /// applied action, whose delta answers it) while the replica is in step with the updates.
  func flushOutbox() {
    guard let dealer, !stopped else { return }
    let quietly = sync.phase == .live
    let actions = outbox.withLock {
      $0.takeUnsent(now: .now, client: configuration.clientID, quietly: quietly)
    }
    for action in actions {
      let request: ControlRequest = quietly ? .dispatchQuietly(action) : .dispatch(action)
      do {
        if try dealer.send(parts: request.frames, wait: .nonBlocking) { continue }
        counters.sendsDeferred += 1
      } catch {
        log.error("cannot send action \(action.number): \(error)")
      }
      outbox.withLock { $0.unsend(from: action.number) }
      retryFlushSoon()
      return
    }
  }

  /// Flushes the outbox again shortly: a send that could not be queued (the control socket's
  /// queue is full while the leader catches up) is retried, not left until the next action.
  private func retryFlushSoon() {
    guard !flushRetryScheduled else { return }
    flushRetryScheduled = true
    scope.schedule(after: Self.flushRetryDelay) { [unowned self] in
      flushRetryScheduled = false
      flushOutbox()
    }
  }

  /// How long a send that could not be queued waits before it is tried again.
  static var flushRetryDelay: Duration { .milliseconds(10) }

  /// Says `HELLO` again on the open connection after an `out-of-order` answer, which shows that
  /// the leader's numbering differs from the outbox's; its `WELCOME` realigns the outbox, which
  /// sends nothing meanwhile.
  func realign(because reason: String) {
    guard outbox.withLock({ $0.realign(now: .now) }) else { return }
    log.info("asking the leader where the numbering stands: \(reason)")
    counters.realignments += 1
    send(
      .hello(
        version: ControlRequest.version, client: configuration.clientID, fingerprint: fingerprint))
  }

  func send(_ request: ControlRequest) {
    do {
      if try dealer?.send(parts: request.frames, wait: .nonBlocking) != true {
        counters.sendsDeferred += 1
      }
    } catch {
      log.error("cannot send \(request): \(error)")
    }
  }

  private func tick() {
    guard !stopped else { return }
    let now = ContinuousClock.now
    perform(sync.tick(now: now))
    guard dealer != nil, sync.phase != .greeting else { return }
    send(.ping(client: configuration.clientID, sequence: sync.sequence))
    if outbox.withLock({ $0.realignmentTimedOut(after: configuration.resendAfter, now: now) }) {
      reconnect(because: "no WELCOME to a HELLO on the open connection")
    } else if outbox.withLock({ $0.rewindIfUnanswered(for: configuration.resendAfter, now: now) }) {
      counters.resends += 1
      flushOutbox()
    }
  }

  private func scheduleReconnect() {
    let delay = nextDelay
    nextDelay = min(nextDelay * 2, configuration.maximumReconnectDelay)
    scope.schedule(after: delay) { [unowned self] in self.connect() }
  }

  private func closeSockets() {
    for socket in [dealer, subscriber].compactMap({ $0 }) {
      scope.unregister(socket)
      socket.close()
    }
    dealer = nil
    subscriber = nil
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

/// The outbox, shared by the threads that send and the follower's loop.
final class FollowerOutbox: Sendable {
  private let outbox: Mutex<Outbox>

  init(capacity: Int) {
    outbox = Mutex(Outbox(capacity: capacity))
  }

  func withLock<Result>(
    _ body: (inout Outbox) throws(FollowerError) -> Result
  )
    throws(FollowerError) -> Result
  {
    try outbox.withLock { (outbox: inout Outbox) throws(FollowerError) -> Result in
      try body(&outbox)
    }
  }

  func withLock<Result>(_ body: (inout Outbox) -> Result) -> Result {
    outbox.withLock { body(&$0) }
  }
}

/// A follower's event counts.
struct FollowerCounters {
  var reconnects = 0
  var resends = 0
  var realignments = 0
  var sendsDeferred = 0
  var malformedMessages = 0
  var applyFailures = 0
}
