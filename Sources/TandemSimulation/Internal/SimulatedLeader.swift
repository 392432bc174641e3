import StatePatch
import TandemProtocol

/// One run of the leader process in the simulation: ``LeaderProtocol`` with a shell that does
/// what `LeaderEngine` does, over the simulated network and journal: it applies forwarded
/// actions to its state, groups what it applied into deltas, commits them to the journal, and
/// publishes them; it rolls a batch back when the journal refuses it.
final class SimulatedLeader {
  unowned let world: Simulation
  let incarnation: Int
  var core: LeaderProtocol
  var ledger: SimulatedLedger
  /// The state at the newest recorded action, and at the committed (published) sequence.
  var state: TallyState
  var committedState: TallyState
  var committedLedger: ClientLedger
  /// Actions applied since the last commit, with their patches (one per action, when deltas
  /// are per action) and what the history records of them.
  var unpublished: [AppliedAction] = []
  var patches: [Frame] = []
  var applied: [(History.Applied, hash: UInt64)] = []
  var effects: [LeaderEffect] = []
  /// Requests received and not yet handled: the connection's routing id and the frames.
  var inbox: [(connection: Frame, frames: [Frame])] = []
  var drainScheduled = false
  var differ = StateDiffer()
  var paused = false
  let updatesEndpoint: String

  var epoch: Epoch { core.epoch }

  init(
    world: Simulation, incarnation: Int, epoch: Epoch, updatesEndpoint: String,
    from commit: SimulatedJournal.Commit?, recentDeltas: [Delta]
  ) {
    self.world = world
    self.incarnation = incarnation
    self.updatesEndpoint = updatesEndpoint
    let settings = world.configuration
    var configuration = LeaderProtocol.Configuration(
      fingerprint: Simulation.fingerprint,
      heartbeatMilliseconds: UInt64(settings.heartbeatMilliseconds),
      updatesEndpoint: updatesEndpoint, limits: .standard,
      maximumCatchUpBytes: settings.maximumCatchUpBytes, hasJournal: settings.journal,
      maximumFollowers: 64, backlogCount: settings.backlogCount, backlogBytes: 1 << 20)
    configuration.followerSilenceLimit = .milliseconds(
      settings.leaderForgetsFollowersAfterMilliseconds)
    let emptyLedger = ClientLedger(
      idleLimit: settings.ledgerIdleLimit, maximumClients: settings.ledgerMaximumClients)
    var ledger = commit?.ledger ?? emptyLedger
    ledger.idleLimit = settings.ledgerIdleLimit
    ledger.maximumClients = settings.ledgerMaximumClients
    let sequence = commit?.sequence ?? 0
    core = LeaderProtocol(
      epoch: epoch, sequence: sequence, configuration: configuration,
      recentDeltas: Array(recentDeltas.suffix(settings.backlogCount)))
    self.ledger = SimulatedLedger(
      ledger: ledger, sequence: sequence, random: SimulationRandom(seed: world.random.next()),
      answersAcrossTakeover: settings.mutation == .answerAcrossTakeover)
    state = commit?.state ?? TallyState()
    committedState = state
    committedLedger = ledger
  }

  // MARK: Inputs

  /// A request arrived on the control socket from `connection`.
  func received(_ frames: [Frame], from connection: Frame) {
    inbox.append((connection, frames))
    if !drainScheduled {
      drainScheduled = true
      world.schedule(.leaderDrain(incarnation), after: 0)
    }
  }

  /// The loop reads every request waiting, then commits and publishes what they applied.
  func drain() {
    drainScheduled = false
    let requests = inbox
    inbox.removeAll(keepingCapacity: true)
    for (connection, frames) in requests {
      let request: ControlRequest
      do {
        request = try ControlRequest(frames: frames)
      } catch {
        core.malformed(error, from: connection, into: &effects)
        perform()
        continue
      }
      if LeaderProtocol.needsCommit(before: request) { flush() }
      core.receive(request, from: connection, now: world.instant, ledger: &ledger, into: &effects)
      perform()
    }
    flush()
  }

  /// The heartbeat timer (and a new subscription, which XPUB_VERBOSE reports).
  func heartbeat() {
    flush()
    core.tick(now: world.instant, stateHash: committedState.canonical().hash, into: &effects)
    perform()
  }

  // MARK: Commit

  /// Commits what was applied since the last commit (journals it, when there is a journal),
  /// then publishes it and releases the replies held for it; rolls it back if the journal
  /// refuses it.
  func flush() {
    let forgotten = ledger.ledger.evict(now: ledger.sequence)
    let sequence = ledger.sequence
    let deltas: [Delta]
    if unpublished.isEmpty {
      deltas = []
    } else {
      switch world.configuration.grouping {
      case .perAction:
        let first = sequence - UInt64(unpublished.count) + 1
        deltas = zip(first..., zip(unpublished, patches)).map {
          Delta(sequence: $0, actions: [$1.0], patch: $1.1)
        }
      case .perBatch:
        // A value of integers and strings always encodes.
        let patch = try! differ.patch(from: committedState, to: state).canonicalBytes()
        deltas = [Delta(sequence: sequence, actions: unpublished, patch: patch)]
      }
    }
    let ledgerChanged = !ledger.changed.isEmpty || !forgotten.isEmpty
    if world.journal != nil, !deltas.isEmpty || ledgerChanged {
      if world.consumeCommitFailure() {
        rollBack()
        return
      }
      world.journal!.append(deltas, sequence: sequence, state: state, ledger: ledger.ledger)
    }
    if !applied.isEmpty {
      world.committed(epoch, after: core.sequence, applied)
    }
    core.committed(sequence: sequence, deltas: deltas, into: &effects)
    unpublished.removeAll(keepingCapacity: true)
    patches.removeAll(keepingCapacity: true)
    applied.removeAll(keepingCapacity: true)
    committedState = state
    committedLedger = ledger.ledger
    ledger.changed.removeAll()
    perform()
  }

  /// Undoes the batch the journal refused, as the Swift leader does: the state and ledger go
  /// back to the committed ones, and every number the batch used stays used (its applied
  /// actions now rejected), so that numbering goes on.
  private func rollBack() {
    let error = SimulatedCommitFailure()
    let rejection = LeaderProtocol.commitFailure(error)
    var undone: [String: [UInt64]] = [:]
    for action in unpublished where !action.origin.isLeader {
      undone[action.origin.client, default: []].append(action.origin.number)
    }
    var restored = committedLedger
    let sequence = core.sequence
    for client in ledger.changed.sorted() {
      guard let after = ledger.ledger.entries[client] else { continue }
      restored.revert(
        client: client, before: committedLedger.entries[client], after: after,
        undone: undone[client] ?? [], rejection: rejection, now: sequence)
    }
    let actions = unpublished
    ledger.ledger = restored
    ledger.sequence = sequence
    state = committedState
    unpublished.removeAll(keepingCapacity: true)
    patches.removeAll(keepingCapacity: true)
    applied.removeAll(keepingCapacity: true)
    core.commitFailed(actions, restoring: committedLedger, because: error, into: &effects)
    perform()
  }

  // MARK: Effects

  /// Carries out the effects, in order, with those that carrying them out adds.
  private func perform() {
    var index = 0
    while index < effects.count {
      let effect = effects[index]
      index += 1
      switch effect {
      case .reply(let connection, let reply):
        world.reply(reply, to: connection)
      case .replyAfterCommit(let connection, let reply, let quiet):
        if world.configuration.mutation == .acknowledgeBeforeCommit, !quiet {
          world.reply(reply, to: connection)
        }
      case .apply(let forwarded, let origin, let connection, let quietly):
        let result = apply(forwarded, origin: origin)
        core.applied(
          forwarded, from: connection, quietly: quietly, result: result, ledger: &ledger,
          into: &effects)
      case .publish(let message):
        world.publish(message.frames)
      case .readJournal(let from, let maximumBytes, let connection):
        let window = world.journal?.window(from: from, maximumBytes: maximumBytes)
        core.journalWindow(.success(window), from: from, for: connection, into: &effects)
      case .sendSnapshot(let connection):
        let (document, hash) = committedState.canonical()
        world.reply(
          .state(epoch, sequence: core.sequence, stateHash: hash, document: document),
          to: connection)
      case .sendStatistics(let connection):
        world.reply(.stats(document: Frame(utf8: "{}")), to: connection)
      case .reloadKeys(let connection):
        // The simulated leader runs without keys, whose protocol refuses RELOAD-KEYS first.
        world.reply(.keys(count: 0, removed: []), to: connection)
      case .stepDown(let connection):
        // This world's leader journals without a lease: it has nothing to hand over.
        core.stepDownAnswered(.withoutLease, for: connection, into: &effects)
      case .log(let level, let message, _):
        if level == .error { world.trace("leader: \(message)") }
      case .count(let event):
        world.count(event)
      case .leadership:
        break  // the simulated leader of this world journals without a lease
      }
    }
    effects.removeAll(keepingCapacity: true)
  }

  /// Applies a forwarded action to the state: `add` counts it, `refuse` is refused by the
  /// application, anything else is unknown.
  private func apply(_ forwarded: ForwardedAction, origin: Origin) -> Result<UInt64, Rejection> {
    guard let mark = ActionMark(payload: forwarded.payload) else {
      return .failure(Rejection(code: .undecodable, message: "not a simulated action"))
    }
    switch forwarded.tag {
    case "add":
      let before = state
      state.total += 1
      state.tally[forwarded.client, default: 0] += 1
      ledger.recordApplied(origin)
      unpublished.append(AppliedAction(origin: origin, tag: forwarded.tag))
      if world.configuration.grouping == .perAction {
        // A value of integers and strings always encodes.
        patches.append(try! differ.patch(from: before, to: state).canonicalBytes())
      }
      applied.append((History.Applied(mark: mark, origin: origin), state.canonical().hash))
      return .success(ledger.sequence)
    case "refuse":
      return .failure(Rejection(code: .refused, message: "the simulated application refuses it"))
    default:
      return .failure(Rejection(code: .unknownTag, message: "no action type \(forwarded.tag)"))
    }
  }
}
