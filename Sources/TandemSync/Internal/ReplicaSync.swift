/// A follower's position in the leader's history and the protocol's rules for moving it: the
/// join without a race, gap detection and repair, epoch changes, hash checks and silence.
///
/// It does no I/O: the follower's I/O loop feeds it what arrives and performs the ``Effect``s it
/// returns, so every rule is tested without sockets.
struct ReplicaSync {
  /// What the follower must do.
  enum Effect: Equatable {
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
  }

  /// Where the join stands.
  enum Phase: Equatable {
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
  struct Counters: Equatable {
    var deltasApplied = 0
    var gapsRepaired = 0
    var resyncs = 0
    var hashMismatches = 0
  }

  private(set) var phase = Phase.greeting {
    didSet { if phase != oldValue { phaseStarted = lastHeard } }
  }
  /// When the current phase began; a join step that takes longer than ``silenceLimit`` means
  /// a lost request, and the follower reconnects.
  private var phaseStarted: ContinuousClock.Instant
  /// The epoch of the replica's history, once it has a snapshot.
  private(set) var epoch: Epoch?
  /// The sequence the replica shows, unless ``replicaBehind``.
  private(set) var sequence: UInt64 = 0
  /// Whether a delta or a snapshot did not apply: the replica store does not show ``sequence``
  /// (it was counted when the delta was accepted), and only a snapshot puts it right. It stays
  /// set across reconnects, so that rejoining the same epoch does not skip that snapshot.
  private(set) var replicaBehind = false
  private(set) var counters = Counters()
  /// The leader's sequence in its last heartbeat of this epoch (for the follower's lag).
  private(set) var leaderSequenceHeard: UInt64 = 0
  /// The leader's heartbeat interval, from `WELCOME`.
  private(set) var heartbeatInterval: Duration = .seconds(1)

  /// Deltas above the next expected one, by first sequence, waiting for the gap before them.
  private var buffered: [UInt64: Delta] = [:]
  /// The epoch of the buffered deltas.
  private var bufferedEpoch: Epoch?
  /// The most deltas held while waiting; past it the follower takes a snapshot instead.
  let bufferLimit: Int
  /// How long the leader may stay silent (no update, no reply) before the follower reconnects.
  let silenceLimit: Duration
  /// When the leader was last heard from.
  private var lastHeard: ContinuousClock.Instant

  init(silenceLimit: Duration, bufferLimit: Int = 100_000, now: ContinuousClock.Instant) {
    self.silenceLimit = silenceLimit
    self.bufferLimit = bufferLimit
    self.lastHeard = now
    self.phaseStarted = now
  }

  /// The request to send on (re)connecting: resets the join, keeps the replica's position.
  mutating func connected(
    client: String, fingerprint: String, now: ContinuousClock.Instant
  )
    -> [Effect]
  {
    lastHeard = now
    phase = .greeting
    phaseStarted = now
    clearBuffer()
    return [
      .send(.hello(version: ControlRequest.version, client: client, fingerprint: fingerprint))
    ]
  }

  /// Checks for a silent leader: nothing heard for longer than ``silenceLimit``.
  func tick(now: ContinuousClock.Instant) -> [Effect] {
    if now - lastHeard > silenceLimit {
      return [.reconnect(reason: "the leader has been silent for more than \(silenceLimit)")]
    }
    if phase != .live && now - phaseStarted > silenceLimit {
      return [.reconnect(reason: "no answer to the join (\(phase)) within \(silenceLimit)")]
    }
    return []
  }

  /// Handles a message from the updates socket.
  mutating func received(_ update: UpdateMessage, now: ContinuousClock.Instant) -> [Effect] {
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
  mutating func received(_ reply: ControlReply, now: ContinuousClock.Instant) -> [Effect] {
    lastHeard = now
    switch reply {
    case .welcome(let welcomeEpoch, _, _, _, let milliseconds, _):
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
      if snapshotEpoch == epoch && snapshotSequence < sequence && !replicaBehind {
        phase = .live  // an older snapshot of our own history: never go back in time
        return drainBuffer()
      }
      epoch = snapshotEpoch
      sequence = snapshotSequence
      replicaBehind = false
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
    case .ack, .reject, .pong, .stats:
      return []
    }
  }

  /// The replica's state hash differs from the leader's at the same sequence: resync.
  mutating func diverged() -> [Effect] {
    counters.hashMismatches += 1
    return requestSnapshot()
  }

  /// A delta or a snapshot failed to apply to the replica: it no longer matches the leader, so
  /// resync.
  mutating func failedToApply() -> [Effect] {
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
  var epoch: Epoch {
    switch self {
    case .delta(let epoch, _), .deltas(let epoch, _), .heartbeat(let epoch, _, _),
      .bye(let epoch, _):
      epoch
    }
  }
}
