/// A follower's position in the leader's history and the protocol's rules for moving it: the
/// join without a race, gap detection and repair, epoch changes, hash checks and silence.
///
/// It does no I/O: the follower's I/O loop feeds it what arrives and performs the ``Effect``s it
/// returns, so every rule is tested without sockets.
package struct ReplicaSync {
  /// What the follower must do.
  package enum Effect: Equatable {
    /// Send this request to the leader's control socket.
    case send(ControlRequest)
    /// Replace the replica with this snapshot.
    case replace(Epoch, sequence: UInt64, stateHash: UInt64, document: Frame)
    /// Apply this delta (the next one in order) to the replica.
    case apply(Delta)
    /// Compare the replica's state hash with the leader's, at the replica's sequence.
    case verify(stateHash: UInt64)
    /// Drop the connection and join again after a back-off.
    case reconnect(reason: String)
    /// Say `HELLO` again on the open connection and send nothing until its `WELCOME`, which
    /// realigns the numbering and names the updates endpoint to read.
    case realign(reason: String)
    /// Tell the operator (the follower logs it as an error): something the follower cannot
    /// put right by itself happened, such as a leader that lost the end of its history.
    case report(String)
  }

  /// Where the join stands.
  package enum Phase: Equatable {
    /// `HELLO` sent, waiting for `WELCOME`.
    case greeting
    /// Subscribed, waiting for the first message on the updates socket.
    case awaitingUpdate
    /// `SNAPSHOT` sent; deltas are buffered meanwhile.
    case awaitingSnapshot
    /// `CATCHUP` sent; deltas are buffered meanwhile.
    case catchingUp
    /// In step with the leader.
    case live
  }

  /// Counters for stats.
  package struct Counters: Equatable {
    package var deltasApplied = 0
    package var gapsRepaired = 0
    package var resyncs = 0
    package var hashMismatches = 0
    /// Times the leader answered a `PING` with a sequence below the one the replica showed
    /// when it sent it, in the same epoch: the leader lost the end of its history.
    package var aheadOfLeader = 0
  }

  package private(set) var phase = Phase.greeting {
    didSet { if phase != oldValue { phaseStarted = lastHeard } }
  }
  /// When the current phase began; a join step that takes longer than ``silenceLimit`` means
  /// a lost request, and the follower reconnects.
  private var phaseStarted: ContinuousClock.Instant
  /// The epoch of the replica's history, once it has a snapshot.
  package private(set) var epoch: Epoch?
  /// The sequence the replica shows, unless ``replicaBehind``.
  package private(set) var sequence: UInt64 = 0
  /// Whether a delta or a snapshot did not apply: the replica store does not show ``sequence``
  /// (it was counted when the delta was accepted), and only a snapshot puts it right. It stays
  /// set across reconnects, so that rejoining the same epoch does not skip that snapshot.
  package private(set) var replicaBehind = false
  package private(set) var counters = Counters()
  /// The leader's sequence in its last heartbeat of this epoch (for the follower's lag).
  package private(set) var leaderSequenceHeard: UInt64 = 0
  /// The leader's heartbeat interval, from `WELCOME`.
  package private(set) var heartbeatInterval: Duration = .seconds(1)
  /// The generation the last `WELCOME` handed this process (0 before the first): sent in every
  /// `HELLO`, so the leader tells this process's reconnects from another process that took the
  /// client id over (see ``ClientLedger/hello(client:generation:now:fresh:)``).
  package private(set) var generation: UInt64 = 0
  /// The replica's epoch and sequence when the last `PING` was sent: its `PONG` must carry at
  /// least that sequence in that epoch, since the leader had reached it before it answered.
  private var pinged: (epoch: Epoch, sequence: UInt64)?
  /// Whether the replica must take the leader's next snapshot even if it is older than the
  /// replica (the leader lost the end of the history the replica shows).
  private var aheadOfLeader = false

  /// Deltas above the next expected one, by first sequence, waiting for the gap before them.
  private var buffered: [UInt64: Delta] = [:]
  /// The epoch of the buffered deltas.
  private var bufferedEpoch: Epoch?
  /// The most deltas held while waiting; past it the follower takes a snapshot instead.
  package let bufferLimit: Int
  /// How long the leader may stay silent (no update, no reply) before the follower reconnects.
  package let silenceLimit: Duration
  /// When the leader was last heard from.
  private var lastHeard: ContinuousClock.Instant
  /// When the follower last checked for silence (nil before the first check of a connection).
  private var lastTick: ContinuousClock.Instant?

  package init(silenceLimit: Duration, bufferLimit: Int = 100_000, now: ContinuousClock.Instant) {
    self.silenceLimit = silenceLimit
    self.bufferLimit = bufferLimit
    self.lastHeard = now
    self.phaseStarted = now
  }

  /// The request to send on (re)connecting: resets the join, keeps the replica's position.
  package mutating func connected(
    client: String, fingerprint: String, schema: Frame? = nil, now: ContinuousClock.Instant
  )
    -> [Effect]
  {
    lastHeard = now
    lastTick = nil
    phase = .greeting
    phaseStarted = now
    clearBuffer()
    pinged = nil
    return [.send(hello(client: client, fingerprint: fingerprint, schema: schema))]
  }

  /// The `HELLO` this process says, on joining and to realign.
  package func hello(client: String, fingerprint: String, schema: Frame? = nil) -> ControlRequest {
    .hello(
      version: ControlRequest.version, client: client, fingerprint: fingerprint,
      generation: generation, schema: schema)
  }

  /// The `PING` to send now, noting the replica's position for its `PONG`.
  package mutating func ping(client: String) -> ControlRequest {
    if phase == .live, let epoch, !replicaBehind { pinged = (epoch, sequence) }
    return .ping(client: client, sequence: sequence)
  }

  /// Checks for a silent leader: nothing heard for longer than ``silenceLimit`` while this
  /// follower was running. The follower ticks several times per silence limit; two ticks
  /// further apart than the whole limit mean that the follower's own process did not run (it
  /// was stopped, or its machine stalled), and that time is not counted against the leader,
  /// whose messages of that time may still be on their way in: the follower reads them before
  /// it judges the leader silent.
  package mutating func tick(now: ContinuousClock.Instant) -> [Effect] {
    if let lastTick, now - lastTick > silenceLimit {
      lastHeard += now - lastTick
      phaseStarted += now - lastTick
    }
    lastTick = now
    if now - lastHeard > silenceLimit {
      return [.reconnect(reason: "the leader has been silent for more than \(silenceLimit)")]
    }
    if phase != .live && now - phaseStarted > silenceLimit {
      return [.reconnect(reason: "no answer to the join (\(phase)) within \(silenceLimit)")]
    }
    return []
  }

  /// Handles a message from the updates socket.
  package mutating func received(_ update: UpdateMessage, now: ContinuousClock.Instant) -> [Effect]
  {
    lastHeard = now
    switch (phase, update) {
    case (_, .deltas(let messageEpoch, let deltas)):
      // As many DELTA messages, in order.
      return deltas.flatMap { received(.delta(messageEpoch, $0), now: now) }
    case (.greeting, _):
      return []
    case (.awaitingUpdate, _) where epoch != nil && update.epoch == epoch && !replicaBehind:
      // Rejoining the history the replica already follows: catch up instead of a snapshot.
      phase = .live
      return received(update, now: now)
    case (.awaitingUpdate, .delta(let messageEpoch, let delta)):
      buffer(delta, of: messageEpoch)
      return requestSnapshot()
    case (.awaitingUpdate, _):
      return requestSnapshot()
    case (_, .bye):
      return [.reconnect(reason: "the leader is stopping")]
    case (.awaitingSnapshot, .delta(let messageEpoch, let delta)):
      buffer(delta, of: messageEpoch)
      return []
    case (_, .delta(let messageEpoch, let delta)):
      guard messageEpoch == epoch else { return newEpoch(keeping: delta, of: messageEpoch) }
      return accept(delta, of: messageEpoch)
    case (_, .heartbeat(let messageEpoch, let leaderSequence, let hash)):
      guard messageEpoch == epoch || phase == .awaitingSnapshot else { return newEpoch() }
      leaderSequenceHeard = leaderSequence
      guard phase == .live else { return [] }
      if leaderSequence > sequence { return requestCatchUp() }
      return leaderSequence == sequence ? [.verify(stateHash: hash)] : []
    }
  }

  /// Handles a reply from the control socket.
  package mutating func received(_ reply: ControlReply, now: ContinuousClock.Instant) -> [Effect] {
    // While live, only the updates socket counts as hearing from the leader (it heartbeats
    // there): a leader restarted behind the open control connection on another updates
    // endpoint, in the same epoch, still answers PINGs while the replica hears nothing, and
    // the follower must rejoin to learn the new endpoint.
    if phase != .live { lastHeard = now }
    switch reply {
    case .welcome(let welcomeEpoch, _, _, _, let milliseconds, _, let handed, _, _):
      generation = handed
      guard phase == .greeting else {
        // A realignment's WELCOME from a leader restarted with a new history behind the open
        // connection. The old history's deltas still on their way name actions by the numbers
        // this WELCOME may give to other actions: none of them may reach the replica now.
        return epoch == nil || welcomeEpoch == epoch ? [] : newEpoch()
      }
      heartbeatInterval = .milliseconds(Int64(clamping: max(milliseconds, 1)))
      phase = .awaitingUpdate
      return []
    case .state(let snapshotEpoch, let snapshotSequence, let hash, let document):
      guard phase == .awaitingSnapshot else { return [] }
      if snapshotEpoch == epoch && snapshotSequence < sequence && !replicaBehind && !aheadOfLeader {
        phase = .live  // an older snapshot of our own history: never go back in time
        return drainBuffer()
      }
      epoch = snapshotEpoch
      sequence = snapshotSequence
      replicaBehind = false
      aheadOfLeader = false
      phase = .live
      if bufferedEpoch != snapshotEpoch { clearBuffer() }
      return [
        .replace(snapshotEpoch, sequence: snapshotSequence, stateHash: hash, document: document)
      ]
        + drainBuffer()
    case .deltas(let replyEpoch, let deltas):
      guard phase == .catchingUp else { return [] }
      guard replyEpoch == epoch else { return newEpoch() }
      counters.gapsRepaired += 1
      phase = .live
      for delta in deltas where delta.sequence > sequence { buffer(delta, of: replyEpoch) }
      return drainBuffer()
    case .stale(let replyEpoch, _):
      guard phase == .catchingUp else { return [] }
      if replyEpoch != epoch { return newEpoch() }
      return requestSnapshot()
    case .error(let code, let message):
      return [.reconnect(reason: "the leader refused: \(code): \(message)")]
    case .pong(let pongEpoch, let leaderSequence):
      return pong(pongEpoch, sequence: leaderSequence)
    case .ack, .reject, .stats, .keys, .redirect, .handingOver:
      return []
    }
  }

  /// A `PONG`: the leader's epoch and sequence when it answered the last `PING`.
  ///
  /// - Another epoch than the replica's, while live: the leader restarted with a new history
  ///   behind the open connection (ZeroMQ reconnected by itself). Its updates endpoint may have
  ///   changed and its ledger may not know this client: say `HELLO` again on the connection,
  ///   whose `WELCOME` realigns the numbering and names the updates endpoint.
  /// - The same epoch with a sequence below the replica's when the `PING` was sent: the leader
  ///   lost the end of the history the replica shows (its journal lost its tail). The replica
  ///   takes the leader's snapshot, older as it is, and the follower says so.
  private mutating func pong(_ pongEpoch: Epoch, sequence leaderSequence: UInt64) -> [Effect] {
    guard phase == .live, let epoch else { return [] }
    guard pongEpoch == epoch else {
      return [
        .realign(
          reason: "the leader answered with epoch \(pongEpoch), not the replica's \(epoch): "
            + "it restarted with a new history")
      ]
    }
    guard let pinged, pinged.epoch == epoch, leaderSequence < pinged.sequence else { return [] }
    self.pinged = nil
    counters.aheadOfLeader += 1
    aheadOfLeader = true
    return [
      .report(
        "the leader is at sequence \(leaderSequence) of epoch \(epoch), behind the replica's "
          + "\(pinged.sequence) in the same history: the leader lost the end of its history "
          + "(a journal that lost its tail, or restored from an older copy); taking its snapshot")
    ] + requestSnapshot()
  }

  /// The replica's state hash differs from the leader's at the same sequence: resync.
  package mutating func diverged() -> [Effect] {
    counters.hashMismatches += 1
    return requestSnapshot()
  }

  /// A delta or a snapshot failed to apply to the replica: it no longer matches the leader, so
  /// resync.
  package mutating func failedToApply() -> [Effect] {
    replicaBehind = true
    return requestSnapshot()
  }

  private mutating func accept(_ delta: Delta, of deltaEpoch: Epoch) -> [Effect] {
    guard delta.sequence > sequence else { return [] }
    guard phase == .live else {
      buffer(delta, of: deltaEpoch)
      return phase == .awaitingSnapshot || buffered.count < bufferLimit ? [] : requestSnapshot()
    }
    guard delta.firstSequence == sequence + 1 else {
      // A delta that begins at or before the replica's sequence (and ends after it) cannot
      // apply in part: only a snapshot puts the replica back on the leader's boundaries.
      if delta.firstSequence <= sequence { return requestSnapshot() }
      buffer(delta, of: deltaEpoch)
      return requestCatchUp()
    }
    sequence = delta.sequence
    counters.deltasApplied += 1
    return [.apply(delta)] + drainBuffer()
  }

  /// Holds `delta` until the deltas before it are applied; a delta of another epoch than the
  /// ones held replaces them.
  private mutating func buffer(_ delta: Delta, of deltaEpoch: Epoch) {
    if bufferedEpoch != deltaEpoch { clearBuffer() }
    bufferedEpoch = deltaEpoch
    if buffered.count < bufferLimit { buffered[delta.firstSequence] = delta }
  }

  private mutating func clearBuffer() {
    buffered.removeAll()
    bufferedEpoch = nil
  }

  /// Applies buffered deltas in order from the replica's sequence; asks for the rest if a gap
  /// remains.
  private mutating func drainBuffer() -> [Effect] {
    guard bufferedEpoch == epoch else {
      clearBuffer()
      return []
    }
    var effects: [Effect] = []
    while let next = buffered.removeValue(forKey: sequence + 1) {
      sequence = next.sequence
      counters.deltasApplied += 1
      effects.append(.apply(next))
    }
    buffered = buffered.filter { $0.key > sequence }
    if !buffered.isEmpty { effects += requestCatchUp() }
    return effects
  }

  private mutating func requestCatchUp() -> [Effect] {
    guard phase == .live, let epoch else { return [] }
    phase = .catchingUp
    return [.send(.catchUp(epoch, from: sequence + 1))]
  }

  private mutating func requestSnapshot() -> [Effect] {
    guard phase != .awaitingSnapshot else { return [] }
    if epoch != nil { counters.resyncs += 1 }
    phase = .awaitingSnapshot
    return [.send(.snapshot)]
  }

  private mutating func newEpoch(
    keeping delta: Delta? = nil, of deltaEpoch: Epoch? = nil
  )
    -> [Effect]
  {
    clearBuffer()
    if let delta, let deltaEpoch { buffer(delta, of: deltaEpoch) }
    return requestSnapshot()
  }
}

extension UpdateMessage {
  /// The epoch the message belongs to.
  package var epoch: Epoch {
    switch self {
    case .delta(let epoch, _), .deltas(let epoch, _), .heartbeat(let epoch, _, _),
      .bye(let epoch, _):
      epoch
    }
  }
}
