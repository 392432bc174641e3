import TandemProtocol

/// The arbiter, the network and the faults of a standby run, as the leaders and clients use
/// them, and its invariant checks.
extension FailoverSimulation {
  // MARK: The arbiter

  /// `node` sends `request` to the arbiter; a node cut off from it gets a failure after the
  /// timeout.
  func ask(_ request: ArbiterRequest, for node: FailoverNode) {
    let run = node.incarnation
    nextCall += 1
    let call = Call(id: nextCall, sent: now)
    node.outstanding.insert(call.id)
    guard !isCutOff(node.id) else {
      if random.chance(0.5) { stalled[node.id, default: []].append((request, run, call)) }
      if case .release = request { return }
      return schedule(
        .arbiterAnswer(node.id, run, Self.failure(of: request), call),
        after: configuration.arbiterTimeoutMilliseconds)
    }
    schedule(
      .arbiterArrive(node.id, run, request, call),
      after: Int64(random.int(1...Int(configuration.arbiterDelayMilliseconds))))
  }

  /// The arbiter carries `request` out (one transaction) and answers.
  func arrive(_ request: ArbiterRequest, from id: Int, run: Int, call: Call) {
    guard !isCutOff(id) || call.sent + configuration.arbiterTimeoutMilliseconds < now else {
      if case .release = request { return }
      return events.schedule(
        .arbiterAnswer(id, run, Self.failure(of: request), call),
        at: max(now + 1, call.sent + configuration.arbiterTimeoutMilliseconds))
    }
    let holder = "n\(id).\(run)"
    let length = configuration.leaseMilliseconds
    let answer: ArbiterAnswer
    switch request {
    case .read:
      answer = .read(arbiter.record(now: now))
    case .acquire:
      let record = arbiter.acquire(holder: holder, control: "n\(id)", length: length, now: now)
      if record != nil {
        trace("arbiter: \(holder) takes the lease, fencing epoch \(arbiter.fencingEpoch)")
        notifyWatchers()
      }
      answer = .acquired(record)
    case .renew(let fencingEpoch):
      answer = .renewed(
        arbiter.renew(holder: holder, fencingEpoch: fencingEpoch, length: length, now: now))
    case .release(let fencingEpoch):
      arbiter.release(holder: holder, fencingEpoch: fencingEpoch, now: now)
      trace("arbiter: \(holder) releases the lease")
      notifyWatchers()
      return
    case .recover:
      answer = .recovered(arbiter.lastNumbers())
    case .commit(let entries, let fencingEpoch):
      guard arbiter.append(entries, fencingEpoch: fencingEpoch) else {
        report.count("appends fenced off")
        answer = .commitFailed(entries, fenced: true)
        break
      }
      for entry in entries {
        let key = "\(entry.client)#\(entry.number)"
        if !journaled.insert(key).inserted {
          violation(
            "exactly once",
            "\(key) is journaled twice (again by \(holder), fencing epoch "
              + "\(fencingEpoch), the lease's \(arbiter.fencingEpoch))")
        }
      }
      answer = .committed(entries)
    }
    schedule(
      .arbiterAnswer(id, run, answer, call),
      after: Int64(random.int(1...Int(configuration.arbiterDelayMilliseconds))))
  }

  /// What a request that timed out reports.
  static func failure(of request: ArbiterRequest) -> ArbiterAnswer {
    if case .commit(let entries, _) = request { return .commitFailed(entries, fenced: false) }
    return .failed(request)
  }

  /// The request an answer answers, for one lost on its way back.
  static func request(of answer: ArbiterAnswer) -> ArbiterRequest {
    switch answer {
    case .read: .read
    case .acquired: .acquire
    case .renewed: .renew(0)
    case .recovered: .recover
    case .committed(let entries), .commitFailed(let entries, _): .commit(entries, fencingEpoch: 0)
    case .failed(let request): request
    }
  }

  /// A standby waits for the lease to change, or `timeout` simulated milliseconds.
  func watching(_ node: FailoverNode, token: UInt64, timeout: Int64) {
    schedule(.watchEnd(node.id, node.incarnation, token), after: timeout)
  }

  /// The lease changed: every standby that can hear the arbiter wakes (NOTIFY).
  private func notifyWatchers() {
    for node in nodes where node.alive && !isCutOff(node.id) {
      schedule(
        .watchEnd(node.id, node.incarnation, node.watch),
        after: Int64(random.int(1...Int(configuration.arbiterDelayMilliseconds))))
    }
  }

  // MARK: The network

  func clientIndex(_ name: String) -> Int { Int(name.dropFirst())! }

  func forward(number: UInt64, from client: FailoverClient, to control: String) {
    guard !loses(), let node = nodes.first(where: { $0.control == control }) else { return }
    events.schedule(
      .toNode(node.id, client: client.id, number: number),
      at: arrival(on: "c\(client.id)>n\(node.id)"))
  }

  func reply(_ reply: Reply, to client: Int) {
    guard !loses() else { return }
    events.schedule(.toClient(client, reply), at: arrival(on: "c\(client)"))
  }

  /// When a message sent now on `link` arrives: after a random delay, and not before the
  /// messages sent on it earlier (a TCP connection keeps their order).
  private func arrival(on link: String) -> Int64 {
    let time = max(
      links[link] ?? 0, now + Int64(random.int(1...Int(configuration.networkDelayMilliseconds))))
    links[link] = time
    return time
  }

  private func loses() -> Bool {
    guard lossesDue > 0 else { return false }
    lossesDue -= 1
    report.count("messages lost")
    return true
  }

  // MARK: Invariants

  /// `node` acknowledges `entry`: it must hold the lease by the arbiter's clock, and the entry
  /// must be in the journal.
  func acknowledged(_ entry: SimulatedArbiter.Entry, by node: FailoverNode, to client: Int) {
    let key = "\(entry.client)#\(entry.number)"
    if !arbiter.holds(node.leaderID, now: now) {
      let holder = arbiter.holder.map { "\($0), fencing epoch \(arbiter.fencingEpoch)" } ?? "none"
      violation(
        "acknowledged only while holding the lease",
        "\(node.leaderID) acknowledges \(key) at \(now) ms; the lease is \(holder), "
          + (arbiter.expiresAt > now ? "running" : "expired at \(arbiter.expiresAt) ms"))
    }
    if !journaled.contains(key) {
      violation("nothing acknowledged is lost", "\(node.leaderID) acknowledges \(key) unjournaled")
    }
    if let down, node.leaderID != down.leader {
      report.failoverMilliseconds.append(now - down.since)
      self.down = nil
    }
    report.count("acknowledgements sent")
    reply(.ack(entry.number, leader: node.leaderID), to: client)
  }

  func servingStarted(_ node: FailoverNode) {
    report.count("takeovers")
  }

  func violation(_ invariant: String, _ detail: String) {
    trace("VIOLATION \(invariant): \(detail)")
    guard report.violations.count < 10 else { return }
    report.violations.append(
      SimulationReport.Violation(
        step: step, invariant: invariant, detail: detail, trace: traceLog.recent))
  }

  func trace(_ line: String) {
    traceLog.append("\(step) @\(now)ms \(line)")
  }
}
