import StatePatch
import TandemProtocol

/// One follower process in the simulation: ``FollowerProtocol`` with a shell that does what
/// `FollowerEngine` does, over the simulated network: it keeps a replica (a JSON document),
/// applies deltas in batches, settles receipts, reconnects with a back-off. The application on
/// top queues actions now and then.
final class SimulatedFollower {
  unowned let world: Simulation
  /// The process's id, unique in the run (a restarted process gets a new one).
  let id: Int
  let client: String
  var core: FollowerProtocol
  /// False once killed: it does nothing more.
  var alive = true
  /// Set once the protocol stopped it.
  var stopCause: FollowerStopCause?
  var paused = false
  /// The control socket's routing id while it has one (between a connect and a reconnect).
  var dealer: Frame?
  /// The updates subscription's id, while it has one.
  var subscription: Int?
  var replica: (epoch: Epoch, sequence: UInt64, document: JSONValue)?
  var pendingDeltas: [Delta] = []
  /// The receipts not settled yet, and the action each names.
  var receipts: [ReceiptID: ActionMark] = [:]
  var nextSerial: UInt64 = 1
  var nextDelay: Int64 = 100
  /// When the next send refusal of the control socket strikes (a fault).
  var refuseNextSend = false

  var isRunning: Bool { alive && stopCause == nil }

  init(world: Simulation, id: Int, client: String) {
    self.world = world
    self.id = id
    self.client = client
    core = FollowerProtocol(
      client: client, fingerprint: Simulation.fingerprint,
      leaders: LeaderEndpoints(["leader"]), capacity: 200,
      silenceLimit: .milliseconds(world.configuration.silenceMilliseconds),
      resendAfter: .milliseconds(world.configuration.silenceMilliseconds), now: world.instant)
  }

  // MARK: Inputs

  /// Opens the sockets and says `HELLO`.
  func connect() {
    guard isRunning else { return }
    world.closeSockets(of: self)
    dealer = world.openDealer(for: self)
    perform(core.connected(now: world.instant))
  }

  /// The timer: read what waits, then let the protocol judge.
  func tick() {
    guard isRunning, dealer != nil else { return }
    world.deliverWaiting(to: self)
    guard isRunning, dealer != nil else { return }
    perform(core.tick(now: world.instant))
  }

  /// A send the control socket could not queue is tried again.
  func flush() {
    guard isRunning, dealer != nil else { return }
    perform(core.flush(now: world.instant))
  }

  /// The application queues an action.
  func send() {
    guard isRunning else { return }
    let mark = ActionMark(process: id, serial: nextSerial)
    let tag = world.random.chance(0.05) ? "refuse" : "add"
    do {
      let receipt = try core.queue(tag: tag, payload: mark.payload)
      nextSerial += 1
      receipts[receipt] = mark
      world.report.count("actions queued")
    } catch {
      world.report.count("actions refused by the outbox")
      return
    }
    perform(core.flush(now: world.instant))
  }

  func received(reply frames: [Frame]) {
    guard isRunning else { return }
    let reply: ControlReply
    do {
      reply = try ControlReply(frames: frames)
    } catch {
      world.violation("codec", "p\(id) cannot read a reply: \(error)")
      return
    }
    switch reply {
    case .welcome: nextDelay = 100
    case .error: world.deliverWaitingUpdates(to: self)
    default: break
    }
    guard isRunning else { return }
    perform(core.received(reply, now: world.instant))
  }

  func received(update frames: [Frame]) {
    guard isRunning else { return }
    let update: UpdateMessage
    do {
      update = try UpdateMessage(frames: frames)
    } catch {
      world.violation("codec", "p\(id) cannot read an update: \(error)")
      return
    }
    perform(core.received(update, now: world.instant))
  }

  /// Killed (SIGKILL): nothing of it remains but its client id in the leader's ledger.
  func kill() {
    alive = false
    pendingDeltas.removeAll()
    receipts.removeAll()
    world.closeSockets(of: self)
  }

  // MARK: Effects

  /// Carries out the effects in order, as the Swift follower does: deltas wait to be applied
  /// together until another effect comes (or the end), then are applied and reported.
  func perform(_ effects: [FollowerEffect], settling: Bool = true) {
    for effect in effects {
      guard isRunning else { return }
      if case .apply(let delta) = effect {
        pendingDeltas.append(delta)
        if pendingDeltas.count < 64 { continue }
      }
      guard applyPendingDeltas() else { return }
      switch effect {
      case .send(let request):
        world.send(request.frames, from: self)
      case .dispatch(let actions, let quietly):
        dispatch(actions, quietly: quietly)
      case .subscribe(let endpoint):
        world.subscribe(self, to: endpoint)
      case .reconnect(let reason):
        reconnect(because: reason)
        return
      case .stop(let cause):
        stop(cause)
        return
      case .settle(let receipt, let result):
        settle(receipt, result)
      case .replace(let epoch, let sequence, let hash, let document):
        guard replace(epoch: epoch, sequence: sequence, hash: hash, document: document) else {
          return
        }
      case .apply:
        break
      case .verify(let hash):
        guard let replica, replica.document.canonicalHash() == hash else {
          world.violation(
            "replica matches the leader",
            "p\(id)'s replica at \(replica.map { "\($0.sequence)" } ?? "none") does not hash to "
              + "the leader's \(hash)")
          perform(core.replicaDiverged(now: world.instant))
          return
        }
      case .log(let level, let message, _):
        if level == .error { world.trace("p\(id): \(message)") }
      case .connectionChanged(let link):
        world.trace("p\(id) \(link)")
      }
    }
    if settling { applyPendingDeltas() }
  }

  private func dispatch(_ actions: [ForwardedAction], quietly: Bool) {
    for action in actions {
      if refuseNextSend {
        refuseNextSend = false
        core.unsent(from: action.number)
        // As the Swift follower does: the refused send and the ones after it go again soon.
        world.schedule(.followerFlush(id), after: 10)
        return
      }
      let request: ControlRequest = quietly ? .dispatchQuietly(action) : .dispatch(action)
      world.send(request.frames, from: self)
    }
  }

  private func reconnect(because reason: String) {
    world.trace("p\(id) reconnects: \(reason)")
    world.report.count("follower reconnects")
    world.closeSockets(of: self)
    pendingDeltas.removeAll()
    perform(core.disconnected(reason: reason))
    let delay = nextDelay
    nextDelay = min(nextDelay * 2, 5_000)
    world.schedule(.followerConnect(id), after: delay)
  }

  private func stop(_ cause: FollowerStopCause) {
    stopCause = cause
    world.closeSockets(of: self)
    world.trace("p\(id) stopped: \(cause)")
    if case .refused(.superseded, _) = cause { world.report.count("followers told superseded") }
    for effect in core.stop() {
      if case .settle(let receipt, let result) = effect { settle(receipt, result) }
    }
  }

  private func settle(_ receipt: ReceiptID, _ result: Result<UInt64, ReceiptFailure>) {
    guard let mark = receipts.removeValue(forKey: receipt) else {
      guard alive else { return }
      return world.violation("a receipt settles once", "p\(id)'s \(receipt) settled again")
    }
    world.settled(mark, result, by: self)
  }

  /// Replaces the replica with a snapshot and reports it; false when the protocol stopped or
  /// reconnected meanwhile.
  private func replace(epoch: Epoch, sequence: UInt64, hash: UInt64, document: Frame) -> Bool {
    guard let parsed = try? JSONParser().parse(document) else {
      world.violation("codec", "p\(id) cannot parse a snapshot")
      return false
    }
    if parsed.canonicalHash() != hash {
      world.violation("snapshots are whole", "p\(id)'s snapshot does not hash to its hash")
    }
    let step = core.replicaReplaced(epoch: epoch, sequence: sequence, now: world.instant)
    showing(epoch, sequence, parsed)
    perform(step)
    return isRunning
  }

  /// Applies the deltas waiting to the replica and reports them; false when one did not apply.
  @discardableResult
  private func applyPendingDeltas() -> Bool {
    guard !pendingDeltas.isEmpty else { return true }
    let deltas = pendingDeltas
    pendingDeltas.removeAll(keepingCapacity: true)
    guard var replica, let epoch = core.sync.epoch, epoch == replica.epoch else {
      world.violation(
        "deltas apply to a replica", "p\(id) got deltas without a replica of their epoch")
      return false
    }
    var applied = 0
    for delta in deltas {
      // The protocol hands the shell only the next delta, and the leader's patches always
      // apply to the state they were made from: anything else is a broken rule.
      guard delta.firstSequence == replica.sequence + 1 else {
        world.violation(
          "deltas apply in order",
          "p\(id) was to apply delta \(delta.firstSequence)...\(delta.sequence) at \(replica.sequence)"
        )
        break
      }
      guard let patch = try? JSONPatch(json: try JSONParser().parse(delta.patch)),
        (try? replica.document.apply(patch)) != nil
      else {
        world.violation(
          "deltas apply", "p\(id)'s delta \(delta.sequence) does not apply at \(replica.sequence)")
        break
      }
      replica.sequence = delta.sequence
      applied += 1
    }
    if applied > 0 { showing(epoch, replica.sequence, replica.document) }
    perform(
      core.replicaApplied(
        deltas[..<applied], dropped: deltas.count - applied, now: world.instant),
      settling: false)
    return applied == deltas.count && isRunning
  }

  /// The replica now shows `sequence` of `epoch`: it must be a state of that history, and not
  /// an earlier one than it showed in it.
  private func showing(_ epoch: Epoch, _ sequence: UInt64, _ document: JSONValue) {
    if let replica, replica.epoch == epoch, sequence < replica.sequence {
      world.violation(
        "a replica never goes back",
        "p\(id) went from \(replica.sequence) to \(sequence) in \(epoch)")
    }
    replica = (epoch, sequence, document)
    world.checkReplica(of: self)
  }
}
