import StatePatch
import Tandem
import ZeroMQ

/// The leader's I/O side, living on its loop thread: the two sockets, the backlog, the snapshot
/// cache and the followers, and the handling of every request (in `LeaderEngine+Requests`).
final class LeaderEngine<State: Codable & Sendable> {
  let store: Store<State>
  let registry: ActionRegistry
  let history: LeaderHistory<State>
  let configuration: LeaderConfiguration
  let fingerprint: String
  let updates: Socket
  let control: Socket
  let controlEndpoint: String
  let updatesEndpoint: String
  let log = Logger(label: "leader")

  var backlog: Backlog
  /// The newest published sequence and the state at it.
  var published: (sequence: UInt64, state: State)
  /// The canonical JSON and hash of the state at one published sequence, encoded once.
  var snapshotCache: (sequence: UInt64, document: Frame, hash: UInt64)?
  /// Followers by client id: when last heard from, and the sequence they reported.
  var followers: [String: (lastSeen: ContinuousClock.Instant, sequence: UInt64)] = [:]
  /// The connection (routing id) that last said HELLO for each client id: the only one whose
  /// DISPATCH the leader accepts for it.
  var owners: [String: Frame] = [:]
  var lastFollowerSweep = ContinuousClock.now
  /// Replies held until the deltas they refer to are published.
  var pendingReplies: [[Frame]] = []
  /// The latest rejections per client, so a resent rejected action is rejected again.
  var recentRejections: [String: [UInt64: Rejection]] = [:]
  var counters = LeaderCounters()
  private var heartbeatTimer: LoopTimer?

  init(
    scope: LoopScope, store: Store<State>, registry: ActionRegistry,
    history: LeaderHistory<State>, configuration: LeaderConfiguration, fingerprint: String
  ) throws {
    self.store = store
    self.registry = registry
    self.history = history
    self.configuration = configuration
    self.fingerprint = fingerprint
    backlog = Backlog(maxCount: configuration.backlogCount, maxBytes: configuration.backlogBytes)
    published = history.read { ($0.sequence, $0.state) }

    updates = try scope.makeSocket(.xpub)
    try updates.set(.xpubVerbose, true)
    try updates.set(.sendHighWaterMark, configuration.updatesHighWaterMark)
    try updates.set(.linger, .zero)
    try updates.bind(Endpoint(validating: configuration.updates))
    let boundUpdates = try updates.lastEndpoint
    updatesEndpoint = configuration.advertisedUpdates ?? boundUpdates.description

    control = try scope.makeSocket(.router)
    try control.set(.routerMandatory, true)
    try control.set(.maxMessageSize, Int64(configuration.maxMessageSize))
    try control.set(.linger, .zero)
    try control.bind(Endpoint(validating: configuration.control))
    controlEndpoint = (try control.lastEndpoint).description

    scope.register(updates) { [unowned self] _ in self.subscriptionsArrived() }
    scope.register(control) { [unowned self] _ in self.requestsArrived() }
    heartbeatTimer = scope.schedule(every: configuration.heartbeatInterval) { [unowned self] in
      self.sendHeartbeat()
    }
  }

  /// Publishes what the store recorded since the last flush, then the replies that wait for it.
  func flush() {
    let batch = history.takeUnpublished()
    for delta in batch.deltas {
      let frames = UpdateMessage.delta(batch.epoch, delta).frames
      send(frames, on: updates)
      backlog.append(delta)
      counters.deltasPublished += 1
      counters.bytesPublished += frames.reduce(0) { $0 + $1.count }
      log.debug("published \(delta.sequence) \(delta.tag) from \(delta.origin)")
    }
    published = (batch.sequence, batch.state)
    for reply in pendingReplies { send(reply, on: control) }
    pendingReplies.removeAll(keepingCapacity: true)
  }

  /// Sends a heartbeat with the published sequence and its state hash.
  func sendHeartbeat() {
    flush()
    let hash = snapshot().hash
    let epoch = history.read { $0.epoch }
    send(
      UpdateMessage.heartbeat(epoch, sequence: published.sequence, stateHash: hash).frames,
      on: updates)
  }

  /// The canonical JSON and hash of the published state, encoded at most once per sequence.
  func snapshot() -> (sequence: UInt64, document: Frame, hash: UInt64) {
    if let cached = snapshotCache, cached.sequence == published.sequence { return cached }
    var encoder = StateEncoder()
    let document: Frame
    do {
      document = try encoder.encode(published.state).canonicalBytes()
    } catch {
      fatalError("Tandem: the leader's state cannot be encoded canonically: \(error)")
    }
    let encoded = (published.sequence, document, JSONValue.fnv1a(document))
    snapshotCache = encoded
    counters.snapshotsEncoded += 1
    return encoded
  }

  /// Says goodbye to followers; the loop closes the sockets afterwards.
  func stop() {
    flush()
    let epoch = history.read { $0.epoch }
    send(UpdateMessage.bye(epoch, sequence: published.sequence).frames, on: updates)
    log.info("stopping at sequence \(published.sequence)")
  }

  /// The statistics `STATS` answers with.
  func statistics() -> LeaderStatistics {
    let now = ContinuousClock.now
    let epoch = history.read { $0.epoch }
    return LeaderStatistics(
      epoch: epoch.description, sequence: published.sequence, backlogCount: backlog.count,
      backlogOldest: backlog.oldestSequence ?? 0, counters: counters.dictionary,
      followers: followers.sorted { $0.key < $1.key }.map { client, record in
        let elapsed = now - record.lastSeen
        return LeaderStatistics.Follower(
          client: client,
          lastSeenMillisecondsAgo: Int(elapsed.components.seconds * 1000)
            + Int(elapsed.components.attoseconds / 1_000_000_000_000_000),
          lag: published.sequence > record.sequence ? published.sequence - record.sequence : 0)
      })
  }

  /// Sends one message without blocking; a message that cannot be sent is counted and dropped
  /// (a follower that went away, or whose queue is full, recovers by its own timeouts).
  func send(_ frames: [Frame], on socket: Socket) {
    do {
      if try !socket.send(parts: frames, wait: .nonBlocking) { counters.messagesDropped += 1 }
    } catch {
      counters.messagesDropped += 1
      log.debug("dropped a message: \(error)")
    }
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

extension Endpoint {
  /// The endpoint `text` names, or a typed error saying it is not an endpoint.
  init(validating text: String) throws(LeaderError) {
    guard let endpoint = Endpoint(parsing: text) else { throw LeaderError.invalidEndpoint(text) }
    self = endpoint
  }
}
