import StatePatch
import Tandem
import TandemJournal
import TandemProtocol
import ZeroMQ

/// The leader's I/O shell, living on its loop thread: the two sockets, the timers, the journal,
/// the store and the snapshot cache. It feeds ``LeaderProtocol`` its inputs (requests, in
/// `LeaderEngine+Requests`; commits and rollbacks; ticks) and carries out the effects it returns
/// (in `LeaderEngine+Effects`); the protocol's rules and bookkeeping are the core's.
final class LeaderEngine<State: Codable & Sendable> {
  let store: Store<State>
  let registry: ActionRegistry
  let history: LeaderHistory<State>
  let configuration: LeaderConfiguration
  let fingerprint: String
  /// The updates (XPUB) and control (ROUTER) sockets; made anew, at the endpoints they bound,
  /// to cut every connection when keys are revoked.
  var updates: Socket
  var control: Socket
  /// The endpoints the two sockets bound, with their real ports.
  var boundEndpoints: (updates: Endpoint, control: Endpoint)
  /// The state type's schema as canonical JSON, recorded with each journal snapshot.
  let stateSchema: [UInt8]
  let controlEndpoint: String
  let updatesEndpoint: String
  /// The durable history, when durability is not `off`.
  let journal: (any JournalStore)?
  let log: TandemLogger
  let scope: LoopScope
  /// The client keys, with CURVE keys (`nil` in plain mode).
  let keyRing: KeyRing?
  /// The monitors of the two sockets' handshake failures.
  var monitors: [Monitor] = []
  var handshakeFailures = HandshakeFailures()

  /// The protocol's rules and their bookkeeping: the followers and the owners of client ids,
  /// the backlog, the committed sequence and the replies held for the batch.
  var core: LeaderProtocol
  /// The effects ``core`` returned and the engine has not carried out yet: one buffer, reused.
  var effects: [LeaderEffect] = []
  /// The newest committed and published sequence and the ledger at it. The ledger is a copy of
  /// the history's kept in step with each batch's changes, not the history's own shared: the
  /// next action recorded would then copy the history's whole ledger, at every batch.
  var published: (sequence: UInt64, ledger: ClientLedger)
  /// The state at ``published``: not in that tuple, as a tuple holding a `State` has its metadata
  /// looked up at run time, at every access.
  var publishedState: State
  /// The canonical JSON and hash of the state at one published sequence, encoded once.
  var snapshotCache: (sequence: UInt64, document: Frame, hash: UInt64)?
  var counters = LeaderCounters()
  /// The latency histograms, read by scrapes from other threads.
  let histograms = LeaderHistograms()
  /// When the oldest action not yet published arrived (for the dispatch-to-publish latency).
  var oldestUnpublished: ContinuousClock.Instant?
  /// The journal's refusals since the last commit that went through; nil while commits do.
  var journalRefusal: JournalRefusal?
  /// The drops the log has not yet reported.
  private var droppedMessages = DroppedMessages()
  /// How often, at most, the log reports dropped messages.
  static var dropReportInterval: Duration { .seconds(10) }
  /// The large replies each control connection has queued and not yet sent on.
  let queuedReplies = QueuedReplies()
  /// Diffs each batch's state against the published one, when actions are grouped.
  let differ: LeaderDiffer
  private var heartbeatTimer: LoopTimer?
  /// Set by ``stop()``: nothing is flushed afterwards (the journal is closed).
  private var stopped = false

  init(
    scope: LoopScope, store: Store<State>, registry: ActionRegistry,
    history: LeaderHistory<State>, differ: LeaderDiffer, configuration: LeaderConfiguration,
    fingerprint: String, schema: ApplicationSchema, keyRing: KeyRing?,
    journal: (any JournalStore)?, recentDeltas: [Delta]
  ) throws {
    self.scope = scope
    self.keyRing = keyRing
    self.store = store
    self.registry = registry
    self.history = history
    self.differ = differ
    self.configuration = configuration
    self.log = configuration.log
    self.fingerprint = fingerprint
    self.stateSchema = schema.state.json.canonicalBytes()
    self.journal = journal
    (published, publishedState) = history.read {
      ((sequence: $0.sequence, ledger: $0.ledger), $0.state)
    }

    let (updates, updatesMonitor) = try Self.makeUpdatesSocket(scope, configuration)
    try updates.bind(configuration.updates)
    let boundUpdates = try updates.lastEndpoint
    updatesEndpoint = configuration.advertisedUpdates ?? boundUpdates.description

    let (control, controlMonitor) = try Self.makeControlSocket(scope, configuration)
    try control.bind(configuration.control)
    let boundControl = try control.lastEndpoint
    controlEndpoint = boundControl.description
    self.updates = updates
    self.control = control
    boundEndpoints = (boundUpdates, boundControl)
    monitors = [updatesMonitor, controlMonitor]

    var rules = LeaderProtocol.Configuration(
      fingerprint: fingerprint,
      heartbeatMilliseconds: UInt64(configuration.heartbeatInterval.milliseconds),
      updatesEndpoint: updatesEndpoint, limits: Self.limits(of: configuration),
      maximumCatchUpBytes: configuration.maximumCatchUpBytes, hasJournal: journal != nil,
      maximumFollowers: configuration.maximumFollowers,
      backlogCount: configuration.backlogCount, backlogBytes: configuration.backlogBytes)
    rules.schema = schema
    rules.updates = configuration.updatesBound
    core = LeaderProtocol(
      epoch: history.epoch, sequence: published.sequence, configuration: rules,
      recentDeltas: recentDeltas)
    effects.reserveCapacity(256)

    registerSockets()
    heartbeatTimer = scope.schedule(every: configuration.heartbeatInterval) { [unowned self] in
      self.sendHeartbeat()
    }
  }

  /// Commits what the store recorded since the last flush (one transaction: group commit),
  /// publishes it, then sends the replies that waited for it. A batch that fails to commit is
  /// undone instead, and nothing of it is published.
  func flush() {
    // Deposed by an undecided commit: nothing more is journaled (the rolled-back ledger's
    // records of the batch must not reach the journal).
    guard !stopped, core.undecided == nil else { return }
    let batch = takeUnpublished()
    let deltas = deltas(of: batch)
    var snapshotDue = false
    if let journal, !deltas.isEmpty || !batch.changedEntries.isEmpty || !batch.forgotten.isEmpty {
      do {
        let started = ContinuousClock.now
        let commit = try journal.append(
          deltas, ledger: batch.changedEntries, forgetting: batch.forgotten,
          forgottenThrough: batch.forgottenThrough)
        histograms.journalCommit.observe(.now - started)
        snapshotDue = commit.snapshotDue
        counters.commits += 1
        if let refusal = journalRefusal {
          journalRefusal = nil
          log.info("the journal accepts commits again, after \(refusal.summary)")
        }
      } catch {
        journalRefusal = JournalRefusal(
          error: error, batches: (journalRefusal?.batches ?? 0) + 1,
          since: journalRefusal?.since ?? .now)
        rollBack(batch, because: error)
        makeRoomIfFull(after: error)
        return
      }
    }
    core.committed(sequence: batch.sequence, deltas: deltas, into: &effects)
    histograms.observePublished(since: &oldestUnpublished)
    published.sequence = batch.sequence
    publishedState = batch.state
    published.ledger.apply(
      batch.changedEntries, forgetting: batch.forgotten, forgottenThrough: batch.forgottenThrough)
    perform()
    if snapshotDue { writeJournalSnapshot() }
  }

  /// What the store recorded since the last flush, with the store's state after it: the recorded
  /// one, or with grouped deltas the store's own, read inside its drain (waiting for a reduction
  /// or notification round in progress) so that it matches the recorded actions exactly.
  private func takeUnpublished() -> LeaderHistory<State>.Batch {
    guard configuration.deltaGrouping == .perBatch else { return history.takeUnpublished() }
    var batch: LeaderHistory<State>.Batch?
    store.modifyState { [history] state in
      batch = history.takeUnpublished(current: state)
      return false
    }
    guard let batch else { preconditionFailure("the store did not run a state access") }
    return batch
  }

  /// The deltas of a batch's actions: one per action with the patches recorded as they were
  /// applied, or one for all, diffed from the published state.
  private func deltas(of batch: LeaderHistory<State>.Batch) -> [Delta] {
    guard !batch.actions.isEmpty else { return [] }
    switch configuration.deltaGrouping {
    case .perAction:
      let first = batch.sequence - UInt64(batch.actions.count) + 1
      return zip(first..., zip(batch.actions, batch.patches)).map { sequence, recorded in
        Delta(sequence: sequence, actions: [recorded.0], patch: recorded.1)
      }
    case .perBatch:
      let patch = differ.patch(from: publishedState, to: batch.state)
      return [Delta(sequence: batch.sequence, actions: batch.actions, patch: patch)]
    }
  }

  /// Undoes a batch that did not commit: the store and the history go back to the last
  /// published state, its followers' actions are rejected (their numbers used up), and their
  /// acknowledgements become rejections. A duplicate of an action applied before the batch keeps
  /// its acknowledgement, with the client's sequence as of the published state (it was answered
  /// with one the batch made). Actions the leader's store applied on other threads while the
  /// batch was committing are undone with it (they built on its state).
  ///
  /// The history and the store go back together, inside the store's drain, so that no action
  /// is reduced between the two: its recorded patch would start from a state that no longer
  /// exists, and would be published and journaled that way.
  private func rollBack(_ batch: LeaderHistory<State>.Batch, because error: any Error) {
    let rejection = LeaderProtocol.commitFailure(error)
    let restored = published
    let restoredState = publishedState
    store.modifyState { [history] state in
      history.rollBack(
        to: restored.sequence, state: restoredState, ledger: restored.ledger, batch: batch,
        rejection: rejection)
      state = restoredState
      return true
    }
    if let undecided = Self.undecided(error) {
      core.commitUndecided(batch.actions, undecided, into: &effects)
    } else {
      core.commitFailed(batch.actions, restoring: restored.ledger, because: error, into: &effects)
    }
    perform()
  }

  /// Whether a commit's `error` leaves its outcome undecided for the leadership rules: the
  /// journal fenced the append off, or the connection to the shared journal failed, so the
  /// commit may still have gone through.
  static func undecided(_ error: any Error) -> UndecidedCommit? {
    switch error as? JournalError {
    case .fenced: .fenced
    case .postgres(_, let failure) where failure.isConnectionFailure: .outcomeUnknown("\(error)")
    default: nil
    }
  }

  /// After a commit refused for want of room (the journal reached its
  /// ``Journal/Configuration/maximumFileBytes``, or the disk is full), snapshots the published
  /// state so that the compaction after it frees what the snapshot makes unneeded; once per
  /// snapshot's worth of new history, so a journal that compaction cannot shrink does not grow
  /// by a snapshot at every refusal.
  private func makeRoomIfFull(after error: JournalError) {
    guard case .sqlite(_, let failure) = error, failure.primaryCode == 13,  // SQLITE_FULL
      let journal, journal.configuration.compactsAfterSnapshot,
      journal.latestSnapshotSequence != published.sequence
    else { return }
    log.info("making room in the journal: a snapshot at \(published.sequence), then compaction")
    writeJournalSnapshot()
  }

  /// Stores a snapshot of the published state in the journal, which then compacts.
  private func writeJournalSnapshot() {
    guard let journal else { return }
    let snapshot = snapshot()
    do {
      try journal.writeSnapshot(
        sequence: snapshot.sequence, document: snapshot.document,
        ledger: published.ledger, schema: stateSchema)
      counters.journalSnapshots += 1
    } catch {
      log.error("the journal refused a snapshot at \(snapshot.sequence): \(error)")
    }
  }

  /// Sends a heartbeat with the published sequence and its state hash, and logs the messages
  /// dropped since the last report when ``dropReportInterval`` has passed.
  func sendHeartbeat() {
    flush()
    let hash = snapshot().hash
    core.tick(now: .now, stateHash: hash, into: &effects)
    perform()
    if let report = droppedMessages.report(now: .now, every: Self.dropReportInterval) {
      log.info(report)
    }
  }

  /// The canonical JSON and hash of the published state, encoded at most once per sequence.
  func snapshot() -> (sequence: UInt64, document: Frame, hash: UInt64) {
    if let cached = snapshotCache, cached.sequence == published.sequence { return cached }
    var encoder = StateEncoder()
    let document: Frame
    do {
      document = try encoder.encode(publishedState).canonicalBytes()
    } catch {
      fatalError("Tandem: the leader's state cannot be encoded canonically: \(error)")
    }
    let encoded = (published.sequence, document, JSONValue.fnv1a(document))
    snapshotCache = encoded
    counters.snapshotsEncoded += 1
    return encoded
  }

  /// Stops handling requests and recording the store's actions, publishes (and journals) what
  /// it recorded, closes the journal and says goodbye to followers; the loop closes the sockets
  /// afterwards. Nothing is flushed after this.
  func stop() {
    scope.unregister(control)
    scope.unregister(updates)
    for monitor in monitors {
      scope.unregister(monitor.socket)
      monitor.stop()
    }
    if let heartbeatTimer { scope.cancel(heartbeatTimer) }
    store.setReductionObserver(nil)
    flush()
    stopped = true
    journal?.close()
    let epoch = history.epoch
    send(UpdateMessage.bye(epoch, sequence: published.sequence).frames, on: updates)
    log.info("stopping at sequence \(published.sequence)")
  }

  /// Sends one message without blocking; a message that cannot be sent is counted and dropped
  /// (a follower that went away, or whose queue is full, recovers by its own timeouts).
  func send(_ frames: [Frame], on socket: Socket) {
    countingDrops { () throws(ZMQError) in try socket.send(parts: frames, wait: .nonBlocking) }
  }

  /// Runs a non-blocking `send`, and counts the message when it is not sent.
  private func countingDrops(_ send: () throws(ZMQError) -> Bool) {
    do {
      if try !send() { dropped(.unsent) }
    } catch {
      dropped(.unsent)
      log.rateLimited(.debug, "dropped a message: \(error)")
    }
  }

  /// Counts a dropped message; the log says so at the next heartbeat, one line for many.
  func dropped(_ reason: DroppedMessages.Reason) {
    counters.messagesDropped += 1
    counters.droppedByReason[reason.label, default: 0] += 1
    droppedMessages.count(reason)
  }

  /// Replies of at most this many bytes are bounded by the control socket's high-water mark
  /// alone (1000 messages per connection, so 4 MiB); larger ones by their bytes too.
  static var smallReplyBytes: Int { 4 << 10 }

  /// Sends a reply on the control socket without blocking, like ``send(_:on:)``. A reply of
  /// more than ``smallReplyBytes`` (`STATE`, `DELTAS`, `STATS`, a `WELCOME` with a large schema)
  /// is sent only while the connection has less than
  /// ``LeaderConfiguration/maximumQueuedReplyBytes`` of them queued (or none), and else dropped
  /// and counted, as a reply to a full queue is: ZeroMQ's high-water mark counts messages
  /// (1000 per connection), so a peer that asks and does not read could otherwise make the
  /// leader queue a thousand times the state, or the largest catch-up.
  func send(_ reply: ControlReply, to routingID: Frame) {
    let frames = reply.frames(to: routingID)
    let size = frames.reduce(0) { $0 + $1.count }
    guard size > Self.smallReplyBytes else {
      send(frames, on: control)
      return
    }
    let limit = configuration.maximumQueuedReplyBytes
    guard queuedReplies.reserve(size, for: routingID, limit: limit) else {
      dropped(.replyBytesLimit)
      log.rateLimited(
        .debug, "dropped a reply of \(size) bytes: its connection has replies queued to its limit")
      return
    }
    // The last frame is released last, once the whole reply is out.
    let queued = queuedReplies
    var messages = frames.dropLast().map { Message($0) }
    messages.append(Message(frames[frames.count - 1]) { queued.release(size, for: routingID) })
    countingDrops { () throws(ZMQError) in try control.send(messages: messages, wait: .nonBlocking)
    }
  }

  /// Has the loop call the engine when the sockets or their monitors are readable.
  func registerSockets() {
    scope.register(updates) { [unowned self] _ in self.subscriptionsArrived() }
    scope.register(control) { [unowned self] _ in self.requestsArrived() }
    for monitor in monitors {
      scope.register(monitor.socket) { [unowned self] _ in self.monitorEventsArrived(monitor) }
    }
  }

  /// A new updates socket (XPUB) and its monitor, not bound yet.
  static func makeUpdatesSocket(
    _ scope: LoopScope, _ configuration: LeaderConfiguration
  ) throws(ZMQError) -> (Socket, Monitor) {
    let updates = try scope.makeSocket(.xpub)
    try LeaderSecurity.secure(updates, with: configuration.security)
    try updates.set(.xpubVerbose, true)
    // Set once, before any pipe exists: libzmq 4.3 applies a later change to existing pipes too,
    // and a pipe found full under the old mark may then wait for a report of reads (sent every
    // low-water mark of them) that never comes (see the protocol's "Bounds in bytes").
    try updates.set(.sendHighWaterMark, configuration.updatesBound.highWaterMark)
    try updates.set(.linger, .zero)
    return (updates, try updates.monitor(.handshakeFailed))
  }

  /// A new control socket (ROUTER) and its monitor, not bound yet.
  static func makeControlSocket(
    _ scope: LoopScope, _ configuration: LeaderConfiguration
  ) throws(ZMQError) -> (Socket, Monitor) {
    let control = try scope.makeSocket(.router)
    try LeaderSecurity.secure(control, with: configuration.security)
    try control.set(.routerMandatory, true)
    // A follower's control connection keeps its routing id when ZeroMQ reconnects it, and the
    // reconnected one replaces the old (which may not have been seen to break yet).
    try control.set(.routerHandover, true)
    // A dispatched action's payload shares its frame with the action's number, client id and
    // tag: the frame may exceed the announced payload limit by their most bytes.
    try control.set(.maxMessageSize, Int64(controlFrameLimit(configuration)))
    try control.set(.linger, .zero)
    return (control, try control.monitor(.handshakeFailed))
  }

  /// Subscription messages on the updates socket: a new subscriber gets a heartbeat at once,
  /// so its join does not wait a whole interval.
  private func subscriptionsArrived() {
    var subscribed = false
    while let parts = try? updates.receiveParts(wait: .nonBlocking) {
      if parts.first?.first == 1 { subscribed = true }
    }
    if subscribed { sendHeartbeat() }
  }
}

extension Socket {
  /// Binds the endpoint `text` names; a typed error when it is not an endpoint or the bind fails.
  fileprivate func bind(_ text: String) throws(LeaderError) {
    guard let endpoint = Endpoint(parsing: text) else { throw LeaderError.invalidEndpoint(text) }
    do {
      try bind(endpoint)
    } catch {
      throw LeaderError.cannotBind(endpoint: text, cause: error)
    }
  }
}
