import TandemProtocol

/// A deterministic simulation of standby leaders: several leader processes running
/// ``Leadership`` over a simulated arbiter (the model of the database holding the lease and the
/// shared journal, whose appends check the fencing epoch) and clients that forward numbered
/// actions to whichever leader holds the lease, following `REDIRECT`s (``LeaderEndpoints``).
///
/// Faults: the active leader killed (restarted as a standby), a leader paused past its lease
/// (it wakes and must not acknowledge), cut off from the arbiter but not from the clients,
/// clean hand-overs, lost messages; the leaders' clocks drift from the arbiter's. Invariants,
/// checked as the run goes: a leader acknowledges only while the arbiter says it holds the
/// lease; every action is in the journal at most once; every acknowledged action is in it. At
/// the end, after the faults stop: one leader serves, and every action of every client is
/// acknowledged and journaled exactly once. A seed replays a run exactly.
package final class FailoverSimulation {
  enum ArbiterRequest {
    case read, acquire, recover
    case renew(UInt64)
    case release(UInt64)
    case commit([SimulatedArbiter.Entry], fencingEpoch: UInt64)
  }

  enum ArbiterAnswer {
    case read(LeaseRecord?)
    case acquired(LeaseRecord?)
    case renewed(LeaseRecord?)
    case recovered([String: UInt64])
    case committed([SimulatedArbiter.Entry])
    /// Not committed: fenced off (`fenced`), or no answer came (it may commit yet).
    case commitFailed([SimulatedArbiter.Entry], fenced: Bool)
    case failed(ArbiterRequest)
  }

  /// One request to the arbiter: its number, and when it was sent.
  struct Call {
    var id: UInt64
    var sent: Int64
  }

  enum Reply {
    case ack(UInt64, leader: String)
    /// A standby's answer, from the endpoint `from`, naming the holder's endpoint (or none).
    case redirect(String, from: String)
  }

  enum Event {
    case nodeTick(Int, Int)
    case watchEnd(Int, Int, UInt64)
    case arbiterArrive(Int, Int, ArbiterRequest, Call)
    case arbiterAnswer(Int, Int, ArbiterAnswer, Call)
    case demoted(Int, Int)
    case restart(Int)
    case resume(Int)
    case heal(Int)
    case toNode(Int, client: Int, number: UInt64)
    case toClient(Int, Reply)
    case clientSend(Int)
    case clientTick(Int)
  }

  package let configuration: FailoverConfiguration
  var random: SimulationRandom
  package internal(set) var report: SimulationReport
  var events = EventQueue<Event>()
  var now: Int64 = 0
  let origin = ContinuousClock.now
  var arbiter = SimulatedArbiter()
  var nodes: [FailoverNode] = []
  private(set) var clients: [FailoverClient] = []
  var deferred: [Int: [Event]] = [:]
  var cutOffUntil: [Int: Int64] = [:]
  var journaled: Set<String> = []
  var lossesDue = 0
  var nextCall: UInt64 = 0
  /// Requests a node sent while cut off from the arbiter that reach it once the cut heals
  /// (a stalled TCP connection delivers them late), long after the node gave them up.
  var stalled: [Int: [(request: ArbiterRequest, run: Int, call: Call)]] = [:]
  /// The arrival time of the last message on each connection.
  var links: [String: Int64] = [:]
  var faulting = true
  private var sending = true
  var step = 0
  var traceLog = SimulationTrace()
  /// When the serving leader was killed, and its id, until another acknowledges.
  var down: (since: Int64, leader: String)?

  package init(seed: UInt64, configuration: FailoverConfiguration) {
    self.configuration = configuration
    random = SimulationRandom(seed: seed)
    report = SimulationReport(seed: seed)
    arbiter.fences = configuration.mutation != .appendWithoutFencing
    traceLog.length = configuration.traceLength
    traceLog.printsLines = configuration.printsTrace
  }

  /// Runs `steps` steps with faults, then lets the run settle and checks the end state.
  package func run(steps: Int) -> SimulationReport {
    let drift = Double(configuration.maximumDriftPercent) / 100
    for id in 0..<configuration.leaders {
      let rate = 1 + drift * (Double(random.int(-1000...1000)) / 1000)
      nodes.append(FailoverNode(world: self, id: id, rate: rate))
    }
    let endpoints = nodes.map(\.control)
    for id in 0..<configuration.clients {
      clients.append(
        FailoverClient(world: self, id: id, leaders: endpoints.shuffled(using: &random)))
      schedule(.clientSend(id), after: Int64(random.int(1...50)))
      schedule(.clientTick(id), after: configuration.resendMilliseconds / 4)
    }
    for node in nodes { node.start() }
    while step < steps, let (time, event) = events.next() {
      now = time
      step += 1
      handle(event)
      if faulting, random.int(1...configuration.stepsPerFault) == 1 { injectFault() }
    }
    settle()
    report.steps = step
    report.simulatedMilliseconds = now
    report.digest = traceLog.digest
    return report
  }

  private func settle() {
    faulting = false
    sending = false
    trace("faults stop")
    for id in nodes.indices where nodes[id].paused { resume(id) }
    for id in cutOffUntil.keys.sorted() { heal(id) }
    let deadline = now + configuration.settleMilliseconds
    while let (time, event) = events.next(), time <= deadline {
      now = time
      step += 1
      handle(event)
    }
    now = deadline
    let serving = nodes.filter { $0.alive && $0.serving && arbiter.holds($0.leaderID, now: now) }
    if serving.count != 1 {
      violation("one leader serves", "\(serving.count) leaders serve after the faults stopped")
    }
    var counts: [String: Int] = [:]
    for entry in arbiter.journal { counts["\(entry.client)#\(entry.number)", default: 0] += 1 }
    for client in clients {
      if !client.unanswered.isEmpty {
        let leaders = nodes.map {
          "\($0.leaderID) \($0.alive ? "\($0.leadership.phase)" : "dead")"
            + "\($0.committing ? " committing" : "")\($0.serving ? " serving" : "")"
        }
        violation(
          "every action is acknowledged",
          "\(client.name) still waits for \(client.unanswered.count) actions from "
            + "\(client.unanswered.keys.min()!) (follows \(client.leaders.current); leaders: "
            + leaders.joined(separator: ", ") + ")")
      }
      let missing = (1...max(1, client.lastNumber)).filter {
        client.lastNumber > 0 && counts["\(client.name)#\($0)"] == nil
      }
      if !missing.isEmpty {
        violation("every action is applied", "\(client.name)'s \(missing.prefix(5)) are lost")
      }
      report.count("actions sent", Int(client.lastNumber))
      report.count("actions acknowledged", client.acknowledged.count)
    }
    report.count("actions journaled", arbiter.journal.count)
  }

  private func handle(_ event: Event) {
    switch event {
    case .nodeTick(let id, let run):
      guard let node = node(id, run, deferring: event) else { return }
      node.tick()
    case .watchEnd(let id, let run, let token):
      guard let node = node(id, run, deferring: event), node.watch == token else { return }
      node.watch += 1
      node.perform(node.leadership.watchEnded(now: node.instant))
    case .arbiterArrive(let id, let run, let request, let call):
      arrive(request, from: id, run: run, call: call)
    case .arbiterAnswer(let id, let run, let answer, let call):
      guard let node = node(id, run, deferring: event) else { return }
      if isCutOff(id) {
        // The answer is lost on the way: the request times out.
        let failure = Self.failure(of: Self.request(of: answer))
        return events.schedule(
          .arbiterAnswer(id, run, failure, call),
          at: max(now + 1, call.sent + configuration.arbiterTimeoutMilliseconds))
      }
      // A request that timed out was given up: its late answer is void.
      guard node.outstanding.remove(call.id) != nil else {
        if configuration.printsTrace { trace("\(node.leaderID): call \(call.id) answered late") }
        return
      }
      if configuration.printsTrace { trace("\(node.leaderID): call \(call.id): \(answer)") }
      node.answered(answer)
    case .demoted(let id, let run):
      guard let node = node(id, run, deferring: event) else { return }
      node.perform(node.leadership.demoted(now: node.instant))
    case .restart(let id):
      nodes[id].start()
    case .resume(let id):
      resume(id)
    case .heal(let id):
      heal(id)
    case .toNode(let id, let client, let number):
      guard let node = node(id, nodes[id].incarnation, deferring: event) else { return }
      node.received(client: client, number: number)
    case .toClient(let id, let reply):
      clients[id].received(reply)
    case .clientSend(let id):
      guard sending else { return }
      clients[id].send()
      schedule(
        .clientSend(id),
        after: Int64(random.int(1...Int(2 * configuration.sendIntervalMilliseconds))))
    case .clientTick(let id):
      clients[id].tick()
      schedule(.clientTick(id), after: configuration.resendMilliseconds / 4)
    }
  }

  /// The node `id` in its run `run`, unless it died since (the event is void) or is paused
  /// (the event waits for it).
  private func node(_ id: Int, _ run: Int, deferring event: Event) -> FailoverNode? {
    let node = nodes[id]
    guard node.alive, node.incarnation == run else { return nil }
    guard !node.paused else {
      deferred[id, default: []].append(event)
      return nil
    }
    return node
  }

  func schedule(_ event: Event, after delay: Int64) {
    events.schedule(event, at: now + delay)
  }

  private func delay(_ maximum: Int64) -> Int64 { Int64(random.int(1...Int(maximum))) }

  func isCutOff(_ id: Int) -> Bool { cutOffUntil[id] != nil }
}
