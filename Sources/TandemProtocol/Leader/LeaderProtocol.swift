/// The leader's side of the protocol without sockets: the rules of its requests and their
/// bookkeeping, as a value that takes inputs and returns ``LeaderEffect``s.
///
/// Inputs: a request from a connection (``receive(_:from:now:ledger:into:)``), the outcome of
/// applying a forwarded action (``applied(_:from:quietly:result:ledger:into:)``), a batch that
/// committed (``committed(sequence:deltas:into:)``) or failed to
/// (``commitFailed(_:restoring:because:into:)``), the journal's catch-up window
/// (``journalWindow(_:from:for:into:)``), the leadership rules' answer to a `STEP-DOWN`
/// (``stepDownAnswered(_:for:into:)``), and a timer tick (``tick(now:stateHash:into:)``).
/// Effects are appended to a buffer the shell owns and reuses, so that the path of an action
/// allocates nothing for them.
///
/// It keeps the followers and the owners of client ids (``LeaderFollowers``), the backlog of
/// published deltas, the committed sequence, and the replies held until their batch commits.
/// The exactly-once ledger is reached through a ``LeaderLedger``: the shell decides where it
/// lives (the Swift leader shares it with the store's drainer, which records every reduction).
package struct LeaderProtocol: Sendable {
  /// What the leader announces and the limits it keeps.
  package struct Configuration: Sendable {
    /// The schema fingerprint a follower's `HELLO` must carry (or `*`), unless its schema is
    /// compatible with ``schema``.
    package var fingerprint: String
    /// The leader's schema, which `WELCOME` carries and a follower's is compared with when the
    /// fingerprints differ; nil to compare fingerprints only.
    package var schema: ApplicationSchema? = nil {
      didSet { schemaFrame = schema?.frame }
    }
    /// ``schema`` as the frame `WELCOME` carries.
    package private(set) var schemaFrame: Frame? = nil
    package var heartbeatMilliseconds: UInt64
    /// The updates endpoint `WELCOME` announces.
    package var updatesEndpoint: String
    package var limits: ProtocolLimits
    /// The most patch bytes a `CATCHUP` is answered with (else `STALE`).
    package var maximumCatchUpBytes: Int
    /// Whether a journal can serve a catch-up the backlog no longer reaches.
    package var hasJournal: Bool
    package var maximumFollowers: Int
    package var followerSilenceLimit: Duration = .seconds(60)
    package var backlogCount: Int
    package var backlogBytes: Int
    /// The bound on the updates waiting for one follower, and the largest update message.
    package var updates = UpdatesBound(maximumQueuedBytes: 64 << 20, highWaterMark: 100_000)

    package init(
      fingerprint: String, heartbeatMilliseconds: UInt64, updatesEndpoint: String,
      limits: ProtocolLimits, maximumCatchUpBytes: Int, hasJournal: Bool, maximumFollowers: Int,
      backlogCount: Int, backlogBytes: Int
    ) {
      self.fingerprint = fingerprint
      self.heartbeatMilliseconds = heartbeatMilliseconds
      self.updatesEndpoint = updatesEndpoint
      self.limits = limits
      self.maximumCatchUpBytes = maximumCatchUpBytes
      self.hasJournal = hasJournal
      self.maximumFollowers = maximumFollowers
      self.backlogCount = backlogCount
      self.backlogBytes = backlogBytes
    }
  }

  /// A reply held until the batch it belongs to is committed.
  package struct HeldReply: Sendable, Equatable {
    package var connection: Frame
    package var reply: ControlReply
    /// The `ACK` of a `DISPATCH-QUIET`: sent only if it becomes a rejection.
    package var quiet: Bool
  }

  /// The leader's epoch, fixed for its lifetime.
  package let epoch: Epoch
  package let configuration: Configuration
  /// The newest committed and published sequence.
  package internal(set) var sequence: UInt64
  /// The followers and the owners of client ids.
  package internal(set) var followers: LeaderFollowers
  /// The most recent published deltas, for catch-ups.
  package internal(set) var backlog: Backlog
  /// The replies held until the current batch is committed, in order.
  package internal(set) var held: [HeldReply] = []
  /// Followers' actions the current batch applied, counted as applied when it commits.
  package internal(set) var appliedInBatch = 0
  /// Set once a commit could not be decided (``commitUndecided(_:_:into:)``): the leader is
  /// deposed, and answers no forwarded action any more.
  package internal(set) var undecided: UndecidedCommit?

  /// A leader at `sequence` of `epoch`, whose backlog holds `recentDeltas` (ending at it).
  package init(
    epoch: Epoch, sequence: UInt64, configuration: Configuration, recentDeltas: [Delta] = []
  ) {
    self.epoch = epoch
    self.sequence = sequence
    self.configuration = configuration
    followers = LeaderFollowers(
      maximumCount: configuration.maximumFollowers,
      silenceLimit: configuration.followerSilenceLimit)
    backlog = Backlog(maxCount: configuration.backlogCount, maxBytes: configuration.backlogBytes)
    for delta in recentDeltas { backlog.append(delta) }
    held.reserveCapacity(64)
  }

  /// Whether the shell commits and publishes what the store recorded before it hands `request`
  /// in: a snapshot and a catch-up answer from the newest state.
  package static func needsCommit(before request: ControlRequest) -> Bool {
    switch request {
    case .snapshot, .catchUp: true
    default: false
    }
  }

  /// Handles a request from `connection`, received at `now`, from `caller` (``Caller/open``
  /// without CURVE keys): a request the caller's key may not make is refused first
  /// (`LeaderProtocol+Authorization`).
  package mutating func receive<Ledger: LeaderLedger>(
    _ request: ControlRequest, from connection: Frame, caller: Caller = .open,
    now: ContinuousClock.Instant, ledger: inout Ledger, into effects: inout [LeaderEffect]
  ) {
    if let refusal = Self.refusal(of: request, by: caller) {
      return unauthorized(refusal, from: connection, into: &effects)
    }
    switch request {
    case .hello(let version, let client, let theirs, let generation, let schema):
      hello(
        version: version, client: client, fingerprint: theirs, schema: schema,
        generation: generation, key: caller.keyName, from: connection, now: now,
        ledger: &ledger, into: &effects)
    case .snapshot:
      effects.append(.sendSnapshot(to: connection))
    case .catchUp(let theirEpoch, let from):
      catchUp(epoch: theirEpoch, from: from, for: connection, into: &effects)
    case .dispatch(let forwarded):
      dispatch(
        forwarded, from: connection, caller: caller, quietly: false, ledger: &ledger,
        into: &effects)
    case .dispatchQuietly(let forwarded):
      dispatch(
        forwarded, from: connection, caller: caller, quietly: true, ledger: &ledger,
        into: &effects)
    case .ping(let client, let reported):
      followers.pinged(client, sequence: reported, now: now)
      reply(.pong(epoch, sequence: sequence), to: connection, into: &effects)
    case .stats:
      effects.append(.sendStatistics(to: connection))
    case .reloadKeys:
      effects.append(.reloadKeys(for: connection))
    case .stepDown:
      effects.append(.stepDown(for: connection))
    }
  }

  /// Answers a request that did not parse.
  package mutating func malformed(
    _ violation: ProtocolViolation, from connection: Frame, into effects: inout [LeaderEffect]
  ) {
    effects.append(.log(.info, "refused a malformed request: \(violation)", rateLimited: true))
    reply(
      .error(code: violation.code, message: violation.description), to: connection,
      into: &effects)
  }

  /// A timer tick at `now`: forgets the followers not heard from for the silence limit, and
  /// publishes a heartbeat with the committed sequence and `stateHash`, its state's hash.
  package mutating func tick(
    now: ContinuousClock.Instant, stateHash: UInt64, into effects: inout [LeaderEffect]
  ) {
    followers.forget(now: now)
    effects.append(.publish(.heartbeat(epoch, sequence: sequence, stateHash: stateHash)))
  }

  /// Forgets the followers not heard from for the silence limit before `now` (before `STATS`).
  package mutating func forgetFollowers(now: ContinuousClock.Instant) {
    followers.forget(now: now)
  }

  /// Sends `reply` now, unless replies are held: then after them, so that a connection's
  /// replies keep their order.
  mutating func reply(
    _ reply: ControlReply, to connection: Frame, into effects: inout [LeaderEffect]
  ) {
    if held.isEmpty {
      effects.append(.reply(to: connection, reply))
    } else {
      hold(reply, to: connection, quiet: false, into: &effects)
    }
  }

  /// Holds `reply` until the batch commits.
  mutating func hold(
    _ reply: ControlReply, to connection: Frame, quiet: Bool, into effects: inout [LeaderEffect]
  ) {
    held.append(HeldReply(connection: connection, reply: reply, quiet: quiet))
    effects.append(.replyAfterCommit(to: connection, reply, quiet: quiet))
  }
}
