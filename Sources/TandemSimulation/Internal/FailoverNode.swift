import TandemProtocol

/// One leader process of a standby run: ``Leadership`` with a shell that does what the Swift
/// leader's standby mode does, over the simulated arbiter and network. While it serves it
/// gathers the actions clients forward, commits them to the shared journal at every tick (the
/// arbiter checks the fencing epoch) and acknowledges them, if its lease allows.
final class FailoverNode {
  unowned let world: FailoverSimulation
  let id: Int
  /// Starts of this process so far; events of an earlier one are void.
  var incarnation = 0
  var leadership: Leadership
  var alive = true
  var paused = false
  /// The speed of this process's clock against the arbiter's.
  let rate: Double
  /// The ledger recovered from the journal: the last number applied, and committed, per
  /// client.
  var applied: [String: UInt64] = [:]
  var committed: [String: UInt64] = [:]
  /// Actions applied since the last commit, and duplicates waiting for it.
  var batch: [SimulatedArbiter.Entry] = []
  var waiting: [SimulatedArbiter.Entry] = []
  var committing = false
  /// The requests to the arbiter not yet answered nor given up.
  var outstanding: Set<UInt64> = []
  var serving = false
  /// The current watch; a wake-up of an older one is void.
  var watch: UInt64 = 0

  var control: String { "n\(id)" }
  var leaderID: String { "n\(id).\(incarnation)" }

  init(world: FailoverSimulation, id: Int, rate: Double) {
    self.world = world
    self.id = id
    self.rate = rate
    leadership = Leadership(
      configuration: Self.configuration(id: "n\(id).0", world.configuration))
  }

  static func configuration(
    id: String, _ settings: FailoverConfiguration
  )
    -> Leadership
    .Configuration
  {
    Leadership.Configuration(
      leaderID: id, leaseLength: .milliseconds(settings.leaseMilliseconds))
  }

  /// This process's clock at the simulation's time.
  var instant: ContinuousClock.Instant {
    world.origin + .nanoseconds(Int64(Double(world.now) * 1e6 * rate))
  }

  /// Simulated milliseconds that this process's clock counts as `duration`.
  func simulated(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1e3 + Double(attoseconds) * 1e-15
    return max(1, Int64((milliseconds / rate).rounded(.up)))
  }

  /// A new process in this slot: a standby with a fresh leader id.
  func start() {
    incarnation += 1
    outstanding = []
    alive = true
    paused = false
    serving = false
    batch = []
    waiting = []
    committing = false
    applied = [:]
    committed = [:]
    leadership = Leadership(configuration: Self.configuration(id: leaderID, world.configuration))
    world.trace("\(leaderID) starts as a standby")
    perform(leadership.start(now: instant))
    world.schedule(.nodeTick(id, incarnation), after: world.configuration.tickMilliseconds)
  }

  func kill() {
    alive = false
    serving = false
    world.trace("\(leaderID) is killed")
  }

  // MARK: Inputs

  func tick() {
    perform(leadership.tick(now: instant))
    if serving, !committing, !batch.isEmpty || !waiting.isEmpty { commit() }
    world.schedule(
      .nodeTick(id, incarnation),
      after: simulated(.milliseconds(world.configuration.tickMilliseconds)))
  }

  /// A client's forwarded action, `number` of `client`.
  func received(client: Int, number: UInt64) {
    let name = world.clients[client].name
    guard serving else {
      // A lease of this process's earlier run names its own endpoint: no leader serves there.
      let holder = leadership.redirect(now: instant).map(\.control).flatMap {
        $0 == control ? nil : $0
      }
      world.reply(.redirect(holder ?? "", from: control), to: client)
      return
    }
    let entry = SimulatedArbiter.Entry(
      client: name, number: number, fencingEpoch: leadership.fencingEpoch ?? 0)
    if number <= committed[name] ?? 0 {
      acknowledge(entry, to: client)
    } else if number <= applied[name] ?? 0 {
      waiting.append(entry)
    } else if number == (applied[name] ?? 0) + 1 {
      applied[name] = number
      batch.append(entry)
    } else if world.configuration.printsTrace {
      // A gap: the client sends again, in order.
      world.trace("\(leaderID): \(name)'s \(number) is out of order (after \(applied[name] ?? 0))")
    }
  }

  func answered(_ answer: FailoverSimulation.ArbiterAnswer) {
    let now = instant
    switch answer {
    case .read(let record): perform(leadership.leaseRead(record, now: now))
    case .acquired(let record): perform(leadership.acquired(record, now: now))
    case .renewed(let record): perform(leadership.renewed(record, now: now))
    case .recovered(let last):
      applied = last
      committed = last
      perform(leadership.recovered(now: now))
    case .committed(let entries):
      committing = false
      for entry in entries { committed[entry.client] = entry.number }
      // The duplicates waiting for this commit; those of actions in the next batch wait on.
      let due = waiting.filter { $0.number <= committed[$0.client] ?? 0 }
      waiting.removeAll { $0.number <= committed[$0.client] ?? 0 }
      for entry in entries + due { acknowledge(entry, to: world.clientIndex(entry.client)) }
      if leadership.phase == .steppingDown { perform(leadership.drained(now: instant)) }
    case .commitFailed(let entries, let fenced):
      // Fenced off, or the arbiter did not answer (it may commit yet): either way the batch's
      // outcome is not this leader's to tell; the clients send again to whoever holds the
      // lease next, whose ledger (recovered from the journal) answers.
      committing = false
      world.trace("\(leaderID): a commit of \(entries.count) actions failed; answering none")
      applied = committed
      waiting = []
      perform(
        fenced
          ? leadership.fenced(now: now)
          : leadership.commitOutcomeUnknown("the arbiter did not answer", now: now))
    case .failed(let request):
      switch request {
      case .read: perform(leadership.leaseReadFailed("the arbiter did not answer", now: now))
      case .acquire: perform(leadership.acquireFailed("the arbiter did not answer", now: now))
      case .renew: perform(leadership.renewFailed("the arbiter did not answer", now: now))
      case .recover: perform(leadership.recoveryFailed("the arbiter did not answer", now: now))
      case .commit(let entries, _): answered(.commitFailed(entries, fenced: false))
      case .release: break
      }
    }
  }

  // MARK: Effects

  func perform(_ effects: [LeadershipEffect]) {
    for effect in effects {
      switch effect {
      case .readLease: world.ask(.read, for: self)
      case .watchLease(let timeout):
        watch += 1
        world.watching(self, token: watch, timeout: simulated(timeout))
      case .acquire: world.ask(.acquire, for: self)
      case .renew(let fencingEpoch, _): world.ask(.renew(fencingEpoch), for: self)
      case .recover: world.ask(.recover, for: self)
      case .serve:
        serving = true
        world.servingStarted(self)
      case .stopAcknowledging:
        serving = false
        batch = []
        waiting = []
      case .drain:
        if committing {
          // The commit in flight answers; drained follows it.
        } else if batch.isEmpty && waiting.isEmpty {
          perform(leadership.drained(now: instant))
        } else {
          commit()
        }
      case .closeSockets:
        world.schedule(.demoted(id, incarnation), after: 1)
      case .release(let fencingEpoch): world.ask(.release(fencingEpoch), for: self)
      case .log(_, let message): world.trace("\(leaderID): \(message)")
      }
    }
  }

  private func commit() {
    committing = true
    let entries = batch
    batch = []
    world.ask(.commit(entries, fencingEpoch: leadership.fencingEpoch ?? 0), for: self)
  }

  /// Sends the `ACK` of `entry`, if the lease rule allows it (or the mutation ignores it).
  private func acknowledge(_ entry: SimulatedArbiter.Entry, to client: Int) {
    let ignoresLease = world.configuration.mutation == .acknowledgeAfterLease
    guard ignoresLease || leadership.mayAcknowledge(now: instant) else {
      world.report.count("acknowledgements withheld (lease)")
      return
    }
    world.acknowledged(entry, by: self, to: client)
  }
}
