import StatePatch
import TandemProtocol

/// A deterministic simulation of one leader and several follower processes over a simulated
/// network, driven by a seed: ``LeaderProtocol`` and ``FollowerProtocol`` themselves, in shells
/// that do what the Swift leader and follower do, with faults injected between the steps
/// (messages delayed and dropped, connections broken, processes paused, killed and restarted,
/// two processes on one client id, a journal that refuses commits or loses its unsynced tail).
///
/// After every step it checks the invariants of exactly-once dispatch and replica sync against
/// the history of what the leaders committed; after the faults stop, that everything converges.
/// A seed replays a run exactly: every choice comes from ``SimulationRandom``.
///
/// ```swift
/// let report = Simulation(seed: 7).run(steps: 20_000)
/// print(report)  // steps, faults by kind, counts, violations with a trace
/// ```
package final class Simulation {
  /// The fingerprint every simulated process says.
  static let fingerprint = "simulation"

  enum Event {
    case leaderDrain(Int)
    case leaderTick(Int)
    case leaderRestart(moving: Bool)
    case resumeLeader
    case subscriptionActive(Int)
    case followerConnect(Int)
    case followerTick(Int)
    case followerFlush(Int)
    case appSend(Int)
    case resumeFollower(Int)
    case heal(Int)
    case startProcess(String)
    case toLeader(Int)
    case toFollower(Int)
    case update(Int)
  }

  /// A follower's control connection (its DEALER, with the routing id it chose, which
  /// ZeroMQ's automatic reconnects keep).
  struct Dealer {
    var process: Int
    var toLeader = MessageQueue()
    var toFollower = MessageQueue()
    /// Requests sent while no leader ran, which ZeroMQ may send once one does.
    var held: [[Frame]] = []
    /// The leader run it is connected to, if any.
    var connectedTo: Int?
  }

  /// A follower's updates socket (its SUB).
  struct Subscription {
    var process: Int
    var endpoint: String
    var queue = MessageQueue()
    /// The leader run whose publications it receives, once the subscription reached it.
    var connectedTo: Int?
  }

  package let configuration: SimulationConfiguration
  var random: SimulationRandom
  package internal(set) var report: SimulationReport
  private var events = EventQueue<Event>()
  /// Simulated time in milliseconds, and the clock instant it starts at.
  private(set) var now: Int64 = 0
  private let origin = ContinuousClock.now
  var instant: ContinuousClock.Instant { origin + .milliseconds(now) }

  var leader: SimulatedLeader?
  private var leaderRuns = 0
  private var endpoints = 0
  private var updatesEndpoint = "updates-0"
  var journal: SimulatedJournal?
  /// The epoch the last leader ran in.
  private var lastEpoch: Epoch?
  private var history = History()
  private var followers: [SimulatedFollower] = []
  private var dealers: [Int: Dealer] = [:]
  private var nextDealer = 1
  private var subscriptions: [Int: Subscription] = [:]
  private var nextSubscription = 1
  private var partitionedUntil: [Int: Int64] = [:]
  private var deferredForLeader: [Event] = []
  private var deferredForFollower: [Int: [Event]] = [:]
  private var commitFailuresDue = 0
  private var faulting = true
  private var sending = true
  private var step = 0
  private var traceLines: [String] = []
  private var traceNext = 0
  private let faultKinds: [FaultKind]

  package init(seed: UInt64, configuration: SimulationConfiguration) {
    self.configuration = configuration
    random = SimulationRandom(seed: seed)
    report = SimulationReport(seed: seed)
    faultKinds = configuration.faults.sorted()
  }

  /// A run of `seed` with the leader's settings varied by the seed.
  package convenience init(
    seed: UInt64, mutation: SimulationConfiguration.Mutation? = nil,
    without: Set<FaultKind> = [], ledgerPressure: Bool = false, printsTrace: Bool = false
  ) {
    var random = SimulationRandom(seed: seed ^ 0x5EED)
    var configuration = SimulationConfiguration.varied(by: &random, ledgerPressure: ledgerPressure)
    configuration.faults.subtract(without)
    configuration.mutation = mutation
    configuration.printsTrace = printsTrace
    self.init(seed: seed, configuration: configuration)
  }

  // MARK: Running

  /// Runs `steps` steps with faults, then lets the system settle without faults and checks
  /// that it converged.
  package func run(steps: Int) -> SimulationReport {
    startLeader(moving: false)
    for client in configuration.clients { startProcess(client) }
    while step < steps, let (time, event) = events.next() {
      now = time
      step += 1
      handle(event)
      if faulting, configuration.stepsPerFault > 0, random.int(1...configuration.stepsPerFault) == 1
      {
        injectFault()
      }
    }
    settle()
    report.steps = step
    report.simulatedMilliseconds = now
    return report
  }

  /// Stops the faults and the application's sends, lets the system run for
  /// ``SimulationConfiguration/settleMilliseconds``, then checks that every process that runs
  /// shows the leader's state and has no receipt waiting.
  private func settle() {
    faulting = false
    sending = false
    trace("faults stop")
    if let leader, leader.paused { resumeLeader() }
    for follower in followers where follower.paused { resume(follower.id) }
    for id in partitionedUntil.keys.sorted() { heal(id) }
    let deadline = now + configuration.settleMilliseconds
    while let (time, event) = events.next(), time <= deadline {
      now = time
      step += 1
      handle(event)
    }
    now = deadline
    guard let leader else {
      return violation("convergence", "no leader runs after the faults stopped")
    }
    leader.flush()
    let (_, hash) = leader.committedState.canonical()
    for follower in followers where follower.isRunning {
      if !follower.receipts.isEmpty {
        let waiting = follower.receipts.values.map(\.description).sorted()
        violation(
          "every receipt settles",
          "p\(follower.id) (\(follower.client)) still waits for \(waiting.count) receipts "
            + "\(configuration.settleMilliseconds / 1000) s after the faults stopped: "
            + waiting.prefix(5).joined(separator: ", ")
            + " (outbox: \(follower.core.outbox.entries.count) entries from number "
            + "\(follower.core.outbox.entries.first?.number ?? 0), aligned "
            + "\(follower.core.outbox.isAligned), realigning "
            + "\(follower.core.outbox.realigningSince != nil), sync \(follower.core.sync.phase))")
      }
      guard let replica = follower.replica, replica.epoch == leader.epoch,
        replica.sequence == leader.core.sequence, replica.document.canonicalHash() == hash
      else {
        let shows = follower.replica.map { "\($0.epoch) at \($0.sequence)" } ?? "no replica"
        violation(
          "convergence",
          "p\(follower.id) (\(follower.client)) shows \(shows), the leader \(leader.epoch) at "
            + "\(leader.core.sequence), \(configuration.settleMilliseconds / 1000) s after the "
            + "faults stopped")
        continue
      }
    }
  }

  private func handle(_ event: Event) {
    switch event {
    case .leaderDrain(let run):
      guard let leader = leaderRun(run, deferring: event) else { return }
      leader.drain()
    case .leaderTick(let run):
      guard let leader = leaderRun(run, deferring: event) else { return }
      leader.heartbeat()
      if !configuration.fullDurability, journal != nil, random.chance(0.3) { journal!.sync() }
      schedule(.leaderTick(run), after: configuration.heartbeatMilliseconds)
    case .leaderRestart(let moving):
      startLeader(moving: moving)
    case .resumeLeader:
      resumeLeader()
    case .subscriptionActive(let id):
      guard var subscription = subscriptions[id], let leader,
        subscription.endpoint == leader.updatesEndpoint
      else { return }
      guard !leader.paused else { return deferredForLeader.append(event) }
      subscription.connectedTo = leader.incarnation
      subscriptions[id] = subscription
      leader.heartbeat()
    case .followerConnect(let id):
      guard let follower = running(id, deferring: event) else { return }
      follower.connect()
    case .followerTick(let id):
      guard let follower = running(id, deferring: event) else { return }
      follower.tick()
      schedule(.followerTick(id), after: configuration.silenceMilliseconds / 4)
    case .followerFlush(let id):
      guard let follower = running(id, deferring: event) else { return }
      follower.flush()
    case .appSend(let id):
      guard sending, let follower = running(id, deferring: event) else { return }
      follower.send()
      schedule(
        .appSend(id), after: Int64(random.int(1...Int(2 * configuration.sendIntervalMilliseconds))))
    case .resumeFollower(let id):
      resume(id)
    case .heal(let id):
      heal(id)
    case .startProcess(let client):
      startProcess(client)
    case .toLeader(let id):
      guard let leader else { return }
      guard !leader.paused else { return deferredForLeader.append(event) }
      guard var dealer = dealers[id], dealer.connectedTo == leader.incarnation,
        let frames = dealer.toLeader.receive(now: now)
      else { return }
      dealers[id] = dealer
      if configuration.printsTrace {
        trace(
          "leader <- d\(id) p\(dealer.process): \(String(describing: try? ControlRequest(frames: frames)))"
        )
      }
      leader.received(frames, from: Self.routingID(id))
    case .toFollower(let id):
      guard let dealer = dealers[id], let follower = running(dealer.process, deferring: event)
      else { return }
      guard let frames = dealers[id]!.toFollower.receive(now: now) else { return }
      if configuration.printsTrace {
        trace("p\(dealer.process) <- \(String(describing: try? ControlReply(frames: frames)))")
      }
      follower.received(reply: frames)
    case .update(let id):
      guard let subscription = subscriptions[id],
        let follower = running(subscription.process, deferring: event),
        let frames = subscriptions[id]!.queue.receive(now: now)
      else { return }
      if configuration.printsTrace {
        trace(
          "p\(subscription.process) <~ \(String(describing: try? UpdateMessage(frames: frames)).prefix(300))"
        )
      }
      follower.received(update: frames)
    }
  }

  /// The leader of run `run`, unless it is paused (the event waits for it) or gone.
  private func leaderRun(_ run: Int, deferring event: Event) -> SimulatedLeader? {
    guard let leader, leader.incarnation == run else { return nil }
    guard !leader.paused else {
      deferredForLeader.append(event)
      return nil
    }
    return leader
  }

  /// The follower `id`, unless it is paused (the event waits for it), killed or stopped.
  private func running(_ id: Int, deferring event: Event) -> SimulatedFollower? {
    let follower = followers[id]
    guard follower.isRunning else { return nil }
    guard !follower.paused else {
      deferredForFollower[id, default: []].append(event)
      return nil
    }
    return follower
  }

  func schedule(_ event: Event, after delay: Int64) {
    events.schedule(event, at: now + delay)
  }

  private func delay() -> Int64 {
    Int64(random.int(0...Int(configuration.maximumDelayMilliseconds)))
  }

  // MARK: Processes

  private func startLeader(moving: Bool) {
    leaderRuns += 1
    if moving || leaderRuns == 1 {
      endpoints += 1
      updatesEndpoint = "updates-\(endpoints)"
    }
    let epoch: Epoch
    let commit: SimulatedJournal.Commit?
    var recent: [Delta] = []
    if configuration.journal {
      if journal == nil {
        journal = SimulatedJournal(
          epoch: Epoch(rawValue: random.next()), fullDurability: configuration.fullDurability,
          initial: TallyState(),
          ledger: ClientLedger(
            idleLimit: configuration.ledgerIdleLimit,
            maximumClients: configuration.ledgerMaximumClients))
      }
      epoch = journal!.epoch
      commit = journal!.newest
      recent = Array(journal!.deltas.suffix(configuration.backlogCount))
    } else {
      epoch = Epoch(rawValue: random.next())
      commit = nil
    }
    history.begin(epoch, initialHash: TallyState().canonical().hash, from: nil, through: 0)
    let leader = SimulatedLeader(
      world: self, incarnation: leaderRuns, epoch: epoch, updatesEndpoint: updatesEndpoint,
      from: commit, recentDeltas: recent)
    self.leader = leader
    lastEpoch = epoch
    trace("leader run \(leaderRuns) starts: epoch \(epoch) at \(leader.core.sequence)")
    schedule(.leaderTick(leaderRuns), after: configuration.heartbeatMilliseconds)
    for id in dealers.keys.sorted() {
      var dealer = dealers[id]!
      dealer.connectedTo = leaderRuns
      // ZeroMQ sends what was queued during the outage, or not: either may happen.
      for frames in dealer.held where random.chance(0.5) {
        let arrives = dealer.toLeader.send(frames, now: now, delay: delay())
        events.schedule(.toLeader(id), at: arrives)
      }
      dealer.held.removeAll()
      dealers[id] = dealer
    }
    for id in subscriptions.keys.sorted() where subscriptions[id]!.endpoint == updatesEndpoint {
      schedule(.subscriptionActive(id), after: 1 + delay())
    }
  }

  private func crashLeader(machine: Bool, moving: Bool) {
    guard let leader else { return }
    trace("leader run \(leader.incarnation) \(machine ? "machine crashes" : "is killed")")
    self.leader = nil
    deferredForLeader.removeAll()
    for id in dealers.keys.sorted() {
      dealers[id]!.toLeader.removeAll()
      dealers[id]!.toFollower.removeAll()
      dealers[id]!.connectedTo = nil
    }
    for id in subscriptions.keys.sorted() {
      subscriptions[id]!.queue.removeAll()
      subscriptions[id]!.connectedTo = nil
    }
    if machine, journal != nil, let (lost, previous) = journal!.machineCrashed(random: &random) {
      trace("the journal lost \(lost) sequences; it continues under epoch \(journal!.epoch)")
      report.count("sequences lost by a journal", Int(lost))
      history.begin(
        journal!.epoch, initialHash: 0, from: previous, through: journal!.newest.sequence)
    }
    schedule(.leaderRestart(moving: moving), after: Int64(random.int(50...2_000)))
  }

  private func resumeLeader() {
    guard let leader, leader.paused else { return }
    leader.paused = false
    trace("leader resumes")
    let waiting = deferredForLeader
    deferredForLeader.removeAll()
    for event in waiting { schedule(event, after: 0) }
  }

  private func startProcess(_ client: String) {
    let follower = SimulatedFollower(world: self, id: followers.count, client: client)
    followers.append(follower)
    trace("p\(follower.id) starts as \(client)")
    follower.connect()
    schedule(.followerTick(follower.id), after: configuration.silenceMilliseconds / 4)
    schedule(.appSend(follower.id), after: Int64(random.int(1...50)))
  }

  private func resume(_ id: Int) {
    let follower = followers[id]
    guard follower.paused else { return }
    follower.paused = false
    trace("p\(id) resumes")
    let waiting = deferredForFollower.removeValue(forKey: id) ?? []
    for event in waiting { schedule(event, after: 0) }
  }

  private func heal(_ id: Int) {
    guard partitionedUntil.removeValue(forKey: id) != nil else { return }
    trace("p\(id) is reachable again")
    breakConnections(of: followers[id])
  }

  /// The follower's TCP connections break: what was in flight is lost; ZeroMQ reconnects both
  /// sockets by itself (the routing id stays), and the leader sees a new subscription.
  private func breakConnections(of follower: SimulatedFollower) {
    if let dealer = follower.dealer.map(Self.dealerID), dealers[dealer] != nil {
      dealers[dealer]!.toLeader.removeAll()
      dealers[dealer]!.toFollower.removeAll()
    }
    if let id = follower.subscription, subscriptions[id] != nil {
      subscriptions[id]!.queue.removeAll()
      subscriptions[id]!.connectedTo = nil
      schedule(.subscriptionActive(id), after: 1 + delay())
    }
  }

  // MARK: The network, as the shells use it

  static func routingID(_ dealer: Int) -> Frame { Frame(bigEndian: UInt64(dealer)) }

  static func dealerID(_ routingID: Frame) -> Int {
    Int(routingID.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
  }

  func openDealer(for follower: SimulatedFollower) -> Frame {
    let id = nextDealer
    nextDealer += 1
    dealers[id] = Dealer(process: follower.id, connectedTo: leader?.incarnation)
    return Self.routingID(id)
  }

  func closeSockets(of follower: SimulatedFollower) {
    if let dealer = follower.dealer { dealers[Self.dealerID(dealer)] = nil }
    if let subscription = follower.subscription { subscriptions[subscription] = nil }
    follower.dealer = nil
    follower.subscription = nil
  }

  func subscribe(_ follower: SimulatedFollower, to endpoint: String) {
    if let old = follower.subscription { subscriptions[old] = nil }
    let id = nextSubscription
    nextSubscription += 1
    subscriptions[id] = Subscription(process: follower.id, endpoint: endpoint)
    follower.subscription = id
    if let leader, leader.updatesEndpoint == endpoint {
      schedule(.subscriptionActive(id), after: 1 + delay())
    }
  }

  /// A follower sends a request on its control socket.
  func send(_ frames: [Frame], from follower: SimulatedFollower) {
    guard let routingID = follower.dealer else { return }
    let id = Self.dealerID(routingID)
    guard var dealer = dealers[id], partitionedUntil[follower.id] == nil else { return }
    guard dealer.connectedTo != nil else {
      if dealer.held.count < 1_000 { dealer.held.append(frames) }
      dealers[id] = dealer
      return
    }
    let arrives = dealer.toLeader.send(frames, now: now, delay: delay())
    dealers[id] = dealer
    events.schedule(.toLeader(id), at: arrives)
  }

  /// The leader answers on its control socket; a reply to a connection that is gone is
  /// dropped (ROUTER_MANDATORY).
  func reply(_ reply: ControlReply, to connection: Frame) {
    let id = Self.dealerID(connection)
    guard let leader, var dealer = dealers[id], dealer.connectedTo == leader.incarnation,
      partitionedUntil[dealer.process] == nil
    else {
      report.count("replies dropped")
      return
    }
    let arrives = dealer.toFollower.send(reply.frames, now: now, delay: delay())
    dealers[id] = dealer
    events.schedule(.toFollower(id), at: arrives)
  }

  /// The leader publishes on its updates socket: every subscription connected to it gets the
  /// message, unless its queue is full (ZeroMQ drops it silently).
  func publish(_ frames: [Frame]) {
    guard let leader else { return }
    for id in subscriptions.keys.sorted() {
      var subscription = subscriptions[id]!
      guard subscription.connectedTo == leader.incarnation,
        partitionedUntil[subscription.process] == nil
      else { continue }
      guard subscription.queue.count < 400 else {
        report.count("updates dropped at the high-water mark")
        continue
      }
      let arrives = subscription.queue.send(frames, now: now, delay: delay())
      subscriptions[id] = subscription
      events.schedule(.update(id), at: arrives)
    }
  }

  /// Feeds the follower what has arrived for it, updates first (its tick reads them first).
  func deliverWaiting(to follower: SimulatedFollower) {
    deliverWaitingUpdates(to: follower)
    while follower.isRunning, let routingID = follower.dealer,
      let frames = dealers[Self.dealerID(routingID)]?.toFollower.receive(now: now)
    {
      follower.received(reply: frames)
    }
  }

  /// Feeds the follower the updates that have arrived for it.
  func deliverWaitingUpdates(to follower: SimulatedFollower) {
    while follower.isRunning, let id = follower.subscription,
      let frames = subscriptions[id]?.queue.receive(now: now)
    {
      follower.received(update: frames)
    }
  }

  // MARK: Faults

  private func injectFault() {
    guard !faultKinds.isEmpty else { return }
    let kind = random.pick(faultKinds)
    let running = followers.filter { $0.isRunning && !$0.paused }
    let silence = Int(configuration.silenceMilliseconds)
    switch kind {
    case .connectionBreak:
      guard let follower = running.isEmpty ? nil : random.pick(running) else { return }
      trace("fault: p\(follower.id)'s connections break")
      breakConnections(of: follower)
    case .updatesDropped:
      guard let follower = running.isEmpty ? nil : random.pick(running),
        let id = follower.subscription, subscriptions[id] != nil
      else { return }
      let dropped = subscriptions[id]!.queue.drop(random.int(1...8), from: random.int(0...3))
      guard dropped > 0 else { return }
      trace("fault: \(dropped) updates to p\(follower.id) are dropped")
    case .partition:
      guard let follower = running.isEmpty ? nil : random.pick(running),
        partitionedUntil[follower.id] == nil
      else { return }
      let duration = Int64(random.int(100...(3 * silence)))
      partitionedUntil[follower.id] = now + duration
      trace("fault: p\(follower.id) is cut off for \(duration) ms")
      schedule(.heal(follower.id), after: duration)
    case .followerPause:
      guard let follower = running.isEmpty ? nil : random.pick(running) else { return }
      follower.paused = true
      let duration = Int64(random.int(100...(4 * silence)))
      trace("fault: p\(follower.id) pauses for \(duration) ms")
      schedule(.resumeFollower(follower.id), after: duration)
    case .followerKill:
      let alive = followers.filter(\.alive)
      guard let follower = alive.isEmpty ? nil : random.pick(alive) else { return }
      trace("fault: p\(follower.id) (\(follower.client)) is killed")
      follower.kill()
      schedule(.startProcess(follower.client), after: Int64(random.int(50...2_000)))
    case .sharedClientID:
      let alive = followers.filter(\.isRunning)
      let paused = alive.filter(\.paused)
      guard
        let follower = paused.isEmpty
          ? (alive.isEmpty ? nil : random.pick(alive)) : random.pick(paused),
        alive.filter({ $0.client == follower.client }).count < 2
      else { return }
      trace("fault: a second process starts as \(follower.client) beside p\(follower.id)")
      startProcess(follower.client)
    case .leaderPause:
      guard let leader, !leader.paused else { return }
      leader.paused = true
      let duration = Int64(random.int(100...(3 * silence)))
      trace("fault: the leader pauses for \(duration) ms")
      schedule(.resumeLeader, after: duration)
    case .leaderCrash:
      crashLeader(machine: false, moving: false)
    case .machineCrash:
      crashLeader(machine: true, moving: false)
    case .leaderMoves:
      guard leader != nil else { return }
      trace("fault: the leader restarts on another updates endpoint")
      crashLeader(machine: false, moving: true)
    case .commitFailure:
      guard journal != nil else { return }
      trace("fault: the journal will refuse a commit")
      commitFailuresDue += 1
    case .sendRefused:
      guard let follower = running.isEmpty ? nil : random.pick(running) else { return }
      follower.refuseNextSend = true
    }
    report.faults[kind, default: 0] += 1
  }

  func consumeCommitFailure() -> Bool {
    guard commitFailuresDue > 0 else { return false }
    commitFailuresDue -= 1
    report.count("commits refused")
    return true
  }

  // MARK: Invariants

  /// The leader of `epoch` committed `applied` after `sequence`.
  func committed(
    _ epoch: Epoch, after sequence: UInt64, _ applied: [(History.Applied, hash: UInt64)]
  ) {
    for problem in history.commit(epoch, after: sequence, applied) {
      violation("exactly once, in order", problem)
    }
    report.count("actions applied", applied.count)
  }

  /// A receipt of `follower`'s settled.
  func settled(
    _ mark: ActionMark, _ result: Result<UInt64, ReceiptFailure>, by follower: SimulatedFollower
  ) {
    switch result {
    case .success(let sequence):
      report.count("actions acknowledged")
      trace("p\(follower.id): \(mark) acknowledged at \(sequence)")
      guard let epoch = follower.core.sync.epoch, let line = history.line(epoch),
        sequence >= 1, sequence <= line.sequence
      else {
        return violation(
          "acknowledged only if applied",
          "\(mark) of p\(follower.id) acknowledged at \(sequence), which its history "
            + "does not hold")
      }
      // A duplicate's ACK names the client's last sequence, at or after the action's own.
      guard let own = line.sequenceOf[mark], own <= sequence else {
        let applied = line.actions[Int(sequence - 1)]
        return violation(
          "acknowledged only if applied",
          "\(mark) of p\(follower.id) (\(follower.client)) acknowledged at \(sequence), where "
            + "\(applied.mark) (\(applied.origin)) applied"
            + (line.sequenceOf[mark].map { "; it applied at \($0)" } ?? "; it never applied"))
      }
      guard let replica = follower.replica, replica.epoch == epoch, replica.sequence >= sequence
      else {
        return violation(
          "read your writes",
          "\(mark) of p\(follower.id) settled at \(sequence) before its replica showed it")
      }
    case .failure(.rejected(let rejection)):
      report.count("actions rejected (\(rejection.code.rawValue))")
      trace("p\(follower.id): \(mark) rejected: \(rejection.code.rawValue)")
      // Replies of a leader run that is gone never arrive: the rejection is the last run's.
      if let lastEpoch, history.line(lastEpoch)?.sequenceOf[mark] != nil {
        violation("a rejected action is not applied", "\(mark) of p\(follower.id) was applied")
      }
    case .failure(.outcomeUnknown):
      report.count("actions of unknown outcome")
    case .failure(.historyLost):
      report.count("actions whose history was lost")
    case .failure(.stopped):
      report.count("actions failed by a stop")
    }
  }

  /// The follower's replica must show a state of its epoch's history.
  func checkReplica(of follower: SimulatedFollower) {
    guard let replica = follower.replica else { return }
    guard let line = history.line(replica.epoch), replica.sequence <= line.sequence,
      line.hashes[Int(replica.sequence)] == replica.document.canonicalHash()
    else {
      return violation(
        "a replica shows only the leader's states",
        "p\(follower.id) shows a state at \(replica.sequence) of \(replica.epoch) that its "
          + "history does not hold")
    }
  }

  func count(_ event: LeaderEvent) {
    switch event {
    case .supersededHello: report.count("HELLOs refused as superseded")
    case .supersededDispatch: report.count("dispatches refused as superseded")
    case .duplicate: report.count("duplicates answered")
    case .staleCatchUp: report.count("catch-ups answered STALE")
    case .journalCatchUp: report.count("catch-ups from the journal")
    case .commitFailure: report.count("batches rolled back")
    default: break
    }
  }

  func violation(_ invariant: String, _ detail: String) {
    trace("VIOLATION \(invariant): \(detail)")
    guard report.violations.count < 10 else { return }
    report.violations.append(
      SimulationReport.Violation(
        step: step, invariant: invariant, detail: detail, trace: recentTrace()))
  }

  /// Notes a line of the run's trace (kept for a violation's report, folded into the digest).
  func trace(_ line: String) {
    let stamped = "\(step) @\(now)ms \(line)"
    if configuration.printsTrace { print(stamped) }
    for byte in stamped.utf8 { report.digest = (report.digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    if traceLines.count < configuration.traceLength {
      traceLines.append(stamped)
    } else {
      traceLines[traceNext] = stamped
    }
    traceNext = (traceNext + 1) % configuration.traceLength
  }

  private func recentTrace() -> [String] {
    guard traceLines.count == configuration.traceLength else { return traceLines }
    return Array(traceLines[traceNext...] + traceLines[..<traceNext])
  }
}
