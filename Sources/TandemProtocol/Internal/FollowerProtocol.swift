/// A follower's side of the protocol as one value, without I/O: the join and the replica's
/// position (``ReplicaSync``), the numbering and the unanswered actions (``Outbox``, whose
/// realignment it drives), and the acknowledged actions waiting for the replica to show them.
///
/// The follower's I/O shell feeds it what happens (a reply, an update, a tick, a connection
/// opened or closed, an action queued, what the replica applied) and carries out the
/// ``FollowerEffect``s each input returns, in order; nothing else changes it, so every rule of
/// exactly-once dispatch is a table test. Receipts are named by ``ReceiptID``: the shell maps
/// them to its own receipt objects.
package struct FollowerProtocol {
  /// Counts of events that only the protocol sees.
  package struct Counters: Equatable, Sendable {
    /// Times unanswered actions were sent again after going unanswered for ``resendAfter``.
    package var resends = 0
    /// Times the follower said `HELLO` again on its open connection to realign its numbering.
    package var realignments = 0
  }

  /// The follower's client id.
  package let client: String
  /// The schema fingerprint the follower says in `HELLO`.
  package let fingerprint: String
  /// The follower's schema, which `HELLO` carries (nil for none: the fingerprints must match).
  package let schema: ApplicationSchema?
  /// ``schema`` as the frame `HELLO` carries.
  let schemaFrame: Frame?
  /// How long an action or a realignment waits for its answer before it goes again.
  package let resendAfter: Duration
  /// The numbering and the unanswered actions.
  package internal(set) var outbox: Outbox
  /// The join and the replica's position in the leader's history.
  package internal(set) var sync: ReplicaSync
  /// The leader endpoints and the one to join next: the shell connects to
  /// ``LeaderEndpoints/current`` at every (re)connection.
  package internal(set) var leaders: LeaderEndpoints
  package internal(set) var counters = Counters()
  /// The connection last reported (see ``FollowerEffect/connectionChanged(_:)``); nil until
  /// the join is in step.
  package internal(set) var link: FollowerLink?
  /// Why the protocol stopped the follower, once it has (see ``isStopped``).
  package internal(set) var stopCause: FollowerStopCause?
  /// Acknowledged actions waiting for the replica to show their sequence.
  var awaitingVisibility: [(epoch: Epoch, sequence: UInt64, receipt: ReceiptID)] = []
  /// Whether a control connection is open (from ``connected(now:)`` to
  /// ``disconnected(reason:)``).
  var isConnected = false
  /// The updates endpoint read on this connection, as the last `WELCOME` named it.
  var subscribedTo: String?
  /// How many ``FollowerEffect/apply(_:)`` effects the shell has not reported yet: until it
  /// has, the replica does not show ``ReplicaSync/sequence``.
  var unreportedApplies = 0
  /// When ``tick(now:)`` last judged the connection.

  package init(
    client: String, fingerprint: String, schema: ApplicationSchema? = nil,
    leaders: LeaderEndpoints, capacity: Int, silenceLimit: Duration, resendAfter: Duration,
    now: ContinuousClock.Instant
  ) {
    self.client = client
    self.leaders = leaders
    self.fingerprint = fingerprint
    self.schema = schema
    self.schemaFrame = schema?.frame
    self.resendAfter = resendAfter
    self.outbox = Outbox(capacity: capacity)
    self.sync = ReplicaSync(silenceLimit: silenceLimit, now: now)
  }

  /// How many acknowledged actions wait for the replica to show them.
  package var acknowledgedAwaitingVisibility: Int { awaitingVisibility.count }

  /// Whether the follower stopped: nothing is queued or sent any more.
  package var isStopped: Bool { outbox.isClosed }

  /// An action queued by the application: its receipt's id, or why it was not queued.
  package mutating func queue(tag: String, payload: Frame) throws(OutboxRefusal) -> ReceiptID {
    try outbox.enqueue(tag: tag, payload: payload)
  }

  /// The control connection opened: say `HELLO` (the join starts again, the replica keeps its
  /// position).
  package mutating func connected(now: ContinuousClock.Instant) -> [FollowerEffect] {
    guard !isStopped else { return [] }
    isConnected = true
    subscribedTo = nil
    return translate(
      sync.connected(client: client, fingerprint: fingerprint, schema: schemaFrame, now: now),
      now: now)
  }

  /// The connection closed (the shell joins again after a back-off): everything unanswered
  /// goes again on the next one; a connection in step is reported lost, once per outage.
  package mutating func disconnected(reason: String) -> [FollowerEffect] {
    isConnected = false
    // The effects after the one that dropped the connection are void, their deltas with them.
    unreportedApplies = 0
    subscribedTo = nil
    outbox.connectionClosed()
    guard case .inStep = link else { return [] }
    link = .lost(reason: reason)
    return [.connectionChanged(.lost(reason: reason))]
  }

  /// The timer: a silent leader or a stalled join reconnects; otherwise ping, and send again
  /// what went unanswered (or reconnect when a realignment's `WELCOME` never came).
  ///
  /// A pause of this process (SIGSTOP, a stalled machine) is not the leader's silence: the
  /// replica sync's clock counts only the time the follower runs (see ``ReplicaSync/tick(now:)``).
  package mutating func tick(now: ContinuousClock.Instant) -> [FollowerEffect] {
    guard !isStopped, isConnected else { return [] }
    let silence = translate(sync.tick(now: now), now: now)
    guard silence.isEmpty else {
      // A silent leader, or a join that stalled: the next connection tries the next endpoint.
      if silence.contains(where: { if case .reconnect = $0 { true } else { false } }) {
        leaders.advance()
      }
      return silence
    }
    guard sync.phase != .greeting else { return [] }
    var effects: [FollowerEffect] = [.send(sync.ping(client: client))]
    if outbox.realignmentTimedOut(after: resendAfter, now: now) {
      effects.append(.reconnect(reason: "no WELCOME to a HELLO on the open connection"))
    } else if outbox.rewindIfUnanswered(for: resendAfter, now: now) {
      counters.resends += 1
      effects += flush(now: now)
    }
    return effects
  }

  /// The actions to send now: the unsent ones, quietly while the replica is live (a delta
  /// answers an applied one).
  package mutating func flush(now: ContinuousClock.Instant) -> [FollowerEffect] {
    guard !isStopped, isConnected else { return [] }
    let quietly = sync.phase == .live
    let actions = outbox.takeUnsent(
      now: now, replica: (sync.epoch, sync.sequence), client: client,
      generation: sync.generation, quietly: quietly)
    return actions.isEmpty ? [] : [.dispatch(actions, quietly: quietly)]
  }

  /// The control socket could not queue the action numbered `number`: it and the ones after it
  /// go at the next flush.
  package mutating func unsent(from number: UInt64) {
    outbox.unsend(from: number)
  }

  /// The shell stops the follower: every receipt waiting fails with the reason it stops for.
  package mutating func stop() -> [FollowerEffect] {
    close(because: nil)
  }

  /// Stops: fails every receipt waiting (``ReceiptFailure/stopped(_:)``) and refuses what is
  /// queued later.
  mutating func close(because cause: FollowerStopCause?) -> [FollowerEffect] {
    guard !isStopped else { return [] }
    stopCause = cause
    isConnected = false
    let receipts = outbox.close() + awaitingVisibility.map(\.receipt)
    awaitingVisibility.removeAll()
    return receipts.map { .settle($0, .failure(.stopped(cause))) }
  }

  /// Says `HELLO` again on the open connection after an `out-of-order` answer (or a `PONG` of
  /// another epoch): its `WELCOME` realigns the numbering, and nothing is sent meanwhile.
  mutating func realign(because reason: String, now: ContinuousClock.Instant) -> [FollowerEffect] {
    guard outbox.realign(now: now) else { return [] }
    counters.realignments += 1
    return [
      .log(.info, "asking the leader where the numbering stands: \(reason)", peerControlled: false),
      .send(sync.hello(client: client, fingerprint: fingerprint, schema: schemaFrame)),
    ]
  }

  /// The sync rules' effects as the follower's, counting the deltas the shell is to apply.
  mutating func translate(
    _ effects: [ReplicaSync.Effect], now: ContinuousClock.Instant
  )
    -> [FollowerEffect]
  {
    var translated: [FollowerEffect] = []
    translated.reserveCapacity(effects.count)
    for effect in effects {
      switch effect {
      case .send(let request): translated.append(.send(request))
      case .replace(let epoch, let sequence, let hash, let document):
        translated.append(.replace(epoch, sequence: sequence, stateHash: hash, document: document))
      case .apply(let delta):
        unreportedApplies += 1
        translated.append(.apply(delta))
      case .verify(let hash): translated.append(.verify(stateHash: hash))
      case .reconnect(let reason): translated.append(.reconnect(reason: reason))
      case .realign(let reason): translated += realign(because: reason, now: now)
      case .report(let message): translated.append(.log(.error, message, peerControlled: false))
      }
    }
    return translated
  }

  /// Settles the acknowledged receipts whose sequence the replica now shows. None while a
  /// snapshot is awaited, the replica is behind its sync position, or deltas are not applied
  /// yet.
  mutating func settleVisible() -> [FollowerEffect] {
    guard !awaitingVisibility.isEmpty, unreportedApplies == 0,
      sync.phase != .awaitingSnapshot, !sync.replicaBehind, let epoch = sync.epoch
    else { return [] }
    let sequence = sync.sequence
    var effects: [FollowerEffect] = []
    awaitingVisibility.removeAll { waiting in
      guard waiting.epoch == epoch, waiting.sequence <= sequence else { return false }
      effects.append(.settle(waiting.receipt, .success(waiting.sequence)))
      return true
    }
    return effects
  }

  /// Reports the follower in step once the replica is, after the join, a loss, or a move to a
  /// new history: connected, live, showing every delta it accepted.
  mutating func noteInStep() -> [FollowerEffect] {
    guard !isStopped, isConnected, sync.phase == .live, !sync.replicaBehind,
      unreportedApplies == 0, let epoch = sync.epoch
    else { return [] }
    if case .inStep(let reported, _) = link, reported == epoch { return [] }
    link = .inStep(epoch, sequence: sync.sequence)
    return [.connectionChanged(.inStep(epoch, sequence: sync.sequence))]
  }

  /// Adds what follows from the replica's position to `effects` (receipts it now shows, the
  /// connection in step).
  mutating func settled(_ effects: [FollowerEffect]) -> [FollowerEffect] {
    guard !awaitingVisibility.isEmpty || !isInStepLink else { return effects }
    return effects + settleVisible() + noteInStep()
  }

  private var isInStepLink: Bool {
    if case .inStep(let epoch, _) = link { return epoch == sync.epoch }
    return false
  }
}
