import Synchronization
import Tandem
import TandemJournal
import TandemProtocol
import ZeroMQ

/// A leader process that shares a PostgreSQL journal with other leader processes and serves
/// only while it holds their leadership lease: the others wait as standbys and one of them
/// takes over, by itself, when the active leader dies, is cut off from the database or hands
/// over.
///
/// While standby it answers every request on its control endpoint with `REDIRECT` to the
/// active leader, so that followers and `tandem` commands given all the leaders' endpoints find
/// it. When the lease is free or runs out it takes it with a new fencing epoch, recovers the
/// state and the ledger from the journal into ``store``, and serves as a ``Leader`` on the same
/// endpoints: the history continues, and followers keep their replicas. It renews the lease
/// every third of its length, and stops acknowledging before it could run out; every write to
/// the journal checks the fencing epoch in its own transaction, so a deposed leader never
/// commits. The Protocol article's "Standby leaders" gives the rules.
///
/// ```swift
/// var configuration = LeaderConfiguration(control: "tcp://*:5600", updates: "tcp://*:5601")
/// configuration.journalLocation = .postgres(connection: "postgres://tandem@db.internal/app")
/// var standby = StandbyConfiguration(leaseLength: .milliseconds(1500))
/// standby.advertisedControl = "tcp://leader-a.internal:5600"
/// let leader = try await StandbyLeader(
///   store: Store<AppState>(reducer: appReducer, state: AppState()), registry: registry,
///   configuration: configuration, standby: standby)
/// // ... until the process is asked to stop:
/// await leader.stop()   // hands over to a standby first, when this one is active
/// ```
///
/// The ``store`` holds the journal's state while this process is active. Dispatch to it only
/// then: while standby its state is the last one this process served (or the initial one), and
/// the next takeover replaces it with the journal's.
public final class StandbyLeader<State: Codable & Sendable>: LeaderService {
  /// The store the active leader serves; its state is replaced at each takeover.
  public let store: Store<State>
  /// The bound control endpoint, with the real port: the same while standby and active.
  public let controlEndpoint: String
  /// The bound updates endpoint, with the real port, held while standby.
  public let updatesEndpoint: String
  /// This process's id in the lease.
  public let leaderID: String
  /// The metrics of the leader while this process is active, and the lease's.
  public let metrics = MetricsRegistry()

  private let registry: ActionRegistry
  private let configuration: LeaderConfiguration
  private let log: TandemLogger
  private let serving = Mutex(Serving())
  private let keeper: LeaseKeeper
  private let leaseLength: Duration

  /// What the process runs: a responder while standby, a leader while active.
  private struct Serving: Sendable {
    var responder: StandbyResponder?
    var leader: Leader<State>?
    /// The history recovered at a takeover, with the journal open under the lease's fencing,
    /// for the leader to serve once the lease rules say so.
    var recovered: (start: LeaderStart<State>, configuration: LeaderConfiguration)?
    /// The lease holder followers are sent to, as last read.
    var redirect: LeaseRecord?
    var stopped = false
  }

  /// Binds the endpoints as a standby, connects to the lease in the journal's database, and
  /// starts watching it; returns at once (the process takes the lease when it is free).
  ///
  /// - Throws: ``LeaderError/journal(_:)`` when `configuration` names no PostgreSQL journal or
  ///   its database cannot be reached; ``LeaderError/invalidEndpoint(_:)`` and
  ///   ``LeaderError/cannotBind(endpoint:cause:)`` for an endpoint.
  public init(
    store: Store<State>, registry: ActionRegistry, configuration: LeaderConfiguration,
    standby: StandbyConfiguration = StandbyConfiguration()
  ) async throws(LeaderError) {
    guard case .postgres(let connection) = configuration.journalLocation,
      configuration.journal.durability != .off
    else {
      throw .standbyNeedsSharedJournal(
        location: configuration.journal.durability == .off
          ? "a journal of durability off"
          : configuration.journalLocation?.description ?? "no journal")
    }
    precondition(
      standby.leaseLength >= .milliseconds(300), "a standby leader's lease is at least 300 ms")
    let lease: PostgresLease
    do {
      lease = try PostgresLease(connection: connection)
    } catch {
      throw .journal(error)
    }
    let responder = try await StandbyResponder(
      control: configuration.control, updates: configuration.updates,
      security: configuration.security)
    self.store = store
    self.registry = registry
    let log = configuration.logger ?? TandemLogger(label: "leader[\(standby.leaderID)]")
    self.log = log
    controlEndpoint = responder.controlEndpoint
    updatesEndpoint = responder.updatesEndpoint ?? configuration.updates
    leaderID = standby.leaderID
    leaseLength = standby.leaseLength
    var leaderConfiguration = configuration
    // The leader of each term binds what the responder held.
    leaderConfiguration.control = controlEndpoint
    leaderConfiguration.updates = updatesEndpoint
    leaderConfiguration.logger = log
    self.configuration = leaderConfiguration
    serving.withLock { $0.responder = responder }
    let box = WeakBox<StandbyLeader<State>>()
    do {
      keeper = try LeaseKeeper(
        store: lease, leaderID: standby.leaderID,
        control: standby.advertisedControl ?? controlEndpoint,
        updates: configuration.advertisedUpdates ?? updatesEndpoint,
        leaseLength: standby.leaseLength, actions: Self.actions(box))
    } catch {
      await responder.stop()
      throw error
    }
    box.value = self
    metrics.addCollector { [weak self] in await self?.families() ?? [] }
    log.info(
      "standby leader \(leaderID): control \(controlEndpoint), updates \(updatesEndpoint), "
        + "lease of \(standby.leaseLength) in \(lease.location)")
    keeper.start()
  }

  /// The leader while this process is active; nil while it is standby.
  public var leader: Leader<State>? { serving.withLock { $0.leader } }

  /// Whether this process may acknowledge now (it holds the lease with time to spare).
  var acknowledges: Bool { keeper.mayAcknowledge() }

  /// The sequence of the newest action the active leader applied; 0 while standby.
  public var sequence: UInt64 { leader?.sequence ?? 0 }

  /// Reads the key store again (see ``Leader/reloadKeys()``): the active leader's, or while
  /// standby the one the responder checks followers against (the leader of the next takeover
  /// reads the store as it starts).
  @discardableResult
  public func reloadKeys() async throws(LeaderError) -> (count: Int, removed: [String]) {
    let (leader, responder) = serving.withLock { ($0.leader, $0.responder) }
    if let leader { return try await leader.reloadKeys() }
    do throws(KeyStoreError) {
      return try responder?.reloadKeys() ?? (0, [])
    } catch {
      throw .keys(error)
    }
  }

  /// The lease as this process sees it: its role, the lease last read or held, time left.
  public func status() -> LeaseKeeper.Status { keeper.status() }

  /// Hands over when active: commits and answers the batch in flight, gives the lease up so
  /// that a standby takes it at once, and becomes a standby that leaves the lease to the
  /// others for one lease length. Nothing when standby.
  public func stepDown() { keeper.stepDown() }

  /// Stops: an active leader hands over first (as ``stepDown()``, waiting at most two lease
  /// lengths for it), then the lease is left alone and the sockets close.
  public func stop() async {
    if keeper.status().role == "active" {
      keeper.stepDown()
      let deadline = ContinuousClock.now + leaseLength * 2
      while keeper.status().role != "standby", ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(10))
      }
    }
    await keeper.stop()
    let (leader, responder) = serving.withLock { serving in
      serving.stopped = true
      defer { (serving.leader, serving.responder) = (nil, nil) }
      return (serving.leader, serving.responder)
    }
    await leader?.stop()
    await responder?.stop()
  }

  /// The lease's metrics, and the active leader's.
  private func families() async -> [MetricFamily] {
    let status = keeper.status()
    var families: [MetricFamily] = [
      .value(
        "tandem_standby_active", help: "1 while this leader process holds the lease and serves.",
        kind: .gauge, status.role == "active" ? 1 : 0),
      .value(
        "tandem_standby_fencing_epoch",
        help: "The fencing epoch of the lease as this leader process last saw it.",
        kind: .gauge, Double(status.lease?.fencingEpoch ?? 0)),
    ]
    if let leader { families += await leader.metrics.families() }
    return families
  }

  // MARK: - What the lease keeper has the process do (on the keeper's thread)

  /// The keeper's actions, reaching the process through `box` (weakly: a standby leader
  /// released without ``stop()`` lets its keeper go).
  private static func actions(_ box: WeakBox<StandbyLeader<State>>) -> LeaseKeeper.Actions {
    let released = LeaderError.cannotStart(
      ZMQError(code: .terminated, call: "taking over (the standby leader was released)"))
    return LeaseKeeper.Actions(
      recover: { fencingEpoch in
        guard let process = box.value else { throw released }
        try process.recover(fencingEpoch: fencingEpoch)
      },
      serve: {
        guard let process = box.value else { throw released }
        try process.serve()
      },
      stopAcknowledging: { reason in
        box.value?.log.warning("acknowledging nothing more: \(reason)")
      },
      drain: { box.value?.endTerm() },
      closeSockets: { box.value?.becomeStandby() },
      redirect: { record in box.value?.redirect(to: record) },
      log: { isError, message in
        guard let log = box.value?.log else { return }
        if isError { log.error(message) } else { log.info(message) }
      })
  }

  /// Opens the journal with appends fenced by `fencingEpoch` and recovers the history to
  /// serve, while the responder still answers followers (with no holder to name).
  private func recover(fencingEpoch: UInt64) throws {
    var configuration = configuration
    configuration.fencing = .init(holder: leaderID, fencingEpoch: fencingEpoch)
    let keeper = keeper
    configuration.mayAcknowledge = { [weak keeper] in keeper?.mayAcknowledge() ?? false }
    configuration.commitUndecided = { [weak keeper] fenced, reason in
      keeper?.commitUndecided(fenced: fenced, reason: reason)
    }
    configuration.leaseStatus = { [weak keeper] in keeper?.lease() }
    configuration.stepDown = { [weak keeper] in keeper?.stepDown() }
    let start = try Leader.recover(store: store, configuration: configuration)
    serving.withLock { $0.recovered = (start, configuration) }
  }

  /// Takes the endpoints back from the responder and starts a leader on them from the history
  /// recovered; the lease rules let it acknowledge from the start.
  private func serve() throws {
    let (responder, recovered) = serving.withLock { serving in
      defer { (serving.responder, serving.recovered) = (nil, nil) }
      return (serving.responder, serving.recovered)
    }
    guard let recovered else { return }
    if let responder { try waitOnThisThread { await responder.stop() } }
    let (store, registry) = (store, registry)
    do {
      let leader = try waitOnThisThread {
        try await Self.binding { () async throws(LeaderError) in
          try await Leader(
            store: store, registry: registry, configuration: recovered.configuration,
            recovered: recovered.start)
        }
      }
      let stopped = serving.withLock { serving in
        if !serving.stopped { serving.leader = leader }
        return serving.stopped
      }
      if stopped { try? waitOnThisThread { await leader.stop() } }
    } catch {
      becomeStandby()
      throw error
    }
  }

  /// Stops the active leader, if there is one: it commits and answers what it applied, says
  /// `BYE` and closes its sockets (a deposed one's commit is fenced off and answers nothing).
  private func endTerm() {
    let leader: Leader<State>? = serving.withLock { serving in
      defer { serving.leader = nil }
      return serving.leader
    }
    guard let leader else { return }
    try? waitOnThisThread { await leader.stop() }
  }

  /// Ends the term, if one runs (or drops the history recovered for one), and answers
  /// `REDIRECT` on the endpoints again.
  private func becomeStandby() {
    endTerm()
    let dropped = serving.withLock { serving in
      defer { serving.recovered = nil }
      return serving.recovered
    }
    dropped?.start.journal?.close()
    let (running, stopped) = serving.withLock { ($0.responder != nil, $0.stopped) }
    guard !running, !stopped else { return }
    let (control, updates, security) = (controlEndpoint, updatesEndpoint, configuration.security)
    do {
      let responder = try waitOnThisThread {
        try await Self.binding { () async throws(LeaderError) in
          try await StandbyResponder(control: control, updates: updates, security: security)
        }
      }
      let kept = serving.withLock { serving in
        guard !serving.stopped else { return false }
        responder.redirect(to: serving.redirect)
        serving.responder = responder
        return true
      }
      if !kept { try? waitOnThisThread { await responder.stop() } }
    } catch {
      log.error(
        "cannot answer followers while standby (\(error)): they try the other leaders' "
          + "endpoints meanwhile")
    }
  }

  /// Sends followers to `record`'s holder from now on.
  private func redirect(to record: LeaseRecord?) {
    serving.withLock { serving in
      serving.redirect = record
      serving.responder?.redirect(to: record)
    }
  }

  /// Runs `bind`, trying again for up to two seconds while an endpoint is still held: the
  /// sockets of the previous term (or the responder) release their ports asynchronously.
  private static func binding<Value>(
    _ bind: () async throws(LeaderError) -> Value
  ) async throws(LeaderError) -> Value {
    let deadline = ContinuousClock.now + .seconds(2)
    while true {
      do {
        return try await bind()
      } catch .cannotBind(_, let cause)
        where cause.code == .addressInUse && ContinuousClock.now < deadline
      {
        try? await Task.sleep(for: .milliseconds(10))
      }
    }
  }
}

/// A weak reference that can be filled after the closures holding it were made.
private final class WeakBox<Value: AnyObject & Sendable>: Sendable {
  private let reference = Mutex<Weak?>(nil)

  private struct Weak: @unchecked Sendable {
    // Unchecked: a weak reference to a Sendable object.
    weak var value: Value?
  }

  var value: Value? {
    get { reference.withLock { $0?.value } }
    set { reference.withLock { $0 = Weak(value: newValue) } }
  }
}
