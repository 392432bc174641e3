import Tandem
import TandemProtocol

/// A process's replica of the leader's state: a ``Tandem/Store`` that follows the leader and
/// forwards what is dispatched to it.
///
/// Subscribe to ``store`` exactly as to a local store (select, skipRepeats, async sequences); it
/// runs no reducers. Its state changes only when the leader's deltas arrive, always in the
/// leader's order, and its subscribers see every state the leader publishes (every state, unless
/// it groups deltas); a replica store without subscribers applies deltas that arrive together as
/// one change (no one sees the states in between).
/// `store.dispatch(_:)` forwards an action and returns at once (ReSwift's fire-and-forget);
/// ``send(_:)`` forwards one and returns a ``Receipt`` whose `applied()` returns once this
/// replica shows the action's effect.
///
/// ```swift
/// let follower = try await Follower<AppState>(
///   configuration: FollowerConfiguration(leader: "tcp://leader:5600"), registry: registry)
/// follower.store.subscribe(view) { $0.select(\.bookmarks) }
/// let sequence = try await follower.send(AddBookmark(repository: "apple/swift")).applied()
/// ```
///
/// Subscribers of a replica are notified on the follower's I/O thread; a slow subscriber delays
/// the replica (ZeroMQ then drops deltas at the high-water mark and the follower repairs the gap).
///
/// ``stop()`` stops following and returns once the I/O thread has ended. Releasing the last
/// reference to a running follower stops it too, without waiting, from any thread (its own I/O
/// thread included: a subscriber or a task on ``executor`` may release it): unresolved receipts
/// fail with ``FollowerError/stopped`` and the thread and its sockets go shortly after. A
/// ``store`` kept after that holds the last state and drops what is dispatched to it.
public final class Follower<State: Codable & Sendable>: Sendable {
  /// The replica store.
  public var store: Store<State> { core.store }
  /// This follower's client id.
  public var clientID: String { core.configuration.clientID }

  /// The follower's metrics, for Prometheus (see ``MetricsRegistry``): its replica's sequence
  /// and lag, gaps repaired, resyncs, receipts waiting, send-to-applied latency. Serve them
  /// with the `TandemMetrics` module's `MetricsServer`.
  public let metrics = MetricsRegistry()

  /// The follower's state and action schemas, which `HELLO` carries: a leader of another
  /// build admits the follower when they are compatible with its own (see the SchemaEvolution
  /// article of TandemProtocol).
  public let schema: ApplicationSchema

  private let core: FollowerCore<TypedReplicaModel<State>>
  private let registry: ActionRegistry

  /// Joins the leader; returns once the replica holds the leader's state.
  ///
  /// - Throws: ``FollowerError/refused(code:message:)`` when the leader refuses the schema,
  ///   ``FollowerError/joinTimedOut(leader:)`` when no snapshot arrives in time.
  public init(
    configuration: FollowerConfiguration, registry: ActionRegistry
  )
    async throws(FollowerError)
  {
    let fingerprint = SchemaFingerprint.of(
      State.self, registry: registry, version: configuration.schemaVersion)
    let schema = ApplicationSchema(
      State.self, registry: registry, version: configuration.schemaVersion)
    let core = try await FollowerCore(
      configuration: configuration, fingerprint: fingerprint, schema: schema,
      makeModel: { TypedReplicaModel<State>() })
    self.core = core
    self.registry = registry
    self.schema = schema
    metrics.addCollector(FollowerMetrics.collector(core: core))
    let log = TandemLogger(label: "follower[\(configuration.clientID)]")
    // The store holds the core weakly: a store the caller keeps must not keep the follower.
    core.store.setDispatchInterceptor { [registry, weak core] (action: any Action) -> Bool in
      do {
        guard let core else { throw FollowerError.stopped }
        let encoded = try ActionPayload.encode(action, registry: registry)
        _ = try core.forward(tag: encoded.tag, payload: encoded.payload)
      } catch {
        log.error("dropped a dispatched action: \(error)")
      }
      return true
    }
  }

  /// The follower's I/O thread as a task executor.
  ///
  /// A task that prefers it runs its nonisolated code on that thread: ``send(_:)`` hands the
  /// action over without waking another thread, and `applied()` resumes the task right after
  /// the delta was applied, on the same thread. That takes two thread switches out of each
  /// round trip. The thread also applies deltas and notifies subscribers, so code running there
  /// must not block.
  ///
  /// ```swift
  /// let sequence = try await withTaskExecutorPreference(follower.executor) {
  ///   try await follower.send(AddBookmark(repository: "apple/swift")).applied()
  /// }
  /// ```
  public var executor: some TaskExecutor { core.loop }

  /// Forwards `action` to the leader; the receipt resolves once this replica shows its effect.
  ///
  /// - Throws: ``FollowerError/outboxFull(capacity:)`` at once when too many actions are
  ///   unanswered, ``FollowerError/unregisteredAction(_:)`` for a type the registry lacks,
  ///   ``FollowerError/actionTooLarge(bytes:limit:)`` for one whose JSON is too large to send,
  ///   and, once the follower has stopped, why it stopped.
  public func send(_ action: some Action) throws(FollowerError) -> Receipt {
    let encoded: (tag: String, payload: [UInt8])
    do throws(ActionRegistryError) {
      encoded = try ActionPayload.encode(action, registry: registry)
    } catch {
      throw .unregisteredAction(error.description)
    }
    return try core.forward(tag: encoded.tag, payload: encoded.payload)
  }

  /// The replica's position and counters.
  public func statistics() async throws -> FollowerStatistics {
    try await core.statistics()
  }

  /// The follower's connection to its leader: first the current one, then one element per
  /// change. ``FollowerConnection/lost(reason:)`` comes once per outage (the reconnects that
  /// follow while the leader is away add none), ``FollowerConnection/connected(epoch:sequence:)``
  /// once the replica is in step with the leader again, and also, without a loss before it,
  /// when the replica moved to a new history on its connection (a leader restarted without its
  /// history before its silence was noticed). The stream buffers without bound (there are two
  /// elements per outage) and ends when the follower stops (``stopReason`` says why).
  ///
  /// ```swift
  /// for await connection in try await follower.connectionChanges() {
  ///   if case .lost(let reason) = connection { log.warning("leader lost: \(reason)") }
  /// }
  /// ```
  public func connectionChanges() async throws -> AsyncStream<FollowerConnection> {
    try await core.connectionChanges()
  }

  /// Why the follower stopped; nil while it runs. ``FollowerError/stopped`` after ``stop()``
  /// (or the release of the last reference); otherwise it stopped by itself:
  /// ``FollowerError/refused(code:message:)`` when another process took its client id
  /// (`superseded`), or when the leader it rejoined refused its protocol version (`version`) or
  /// its schema (`schema`, or `fingerprint` from a leader without schemas). Read it once ``connectionChanges()`` has ended.
  ///
  /// ```swift
  /// for await _ in try await follower.connectionChanges() {}
  /// if let reason = follower.stopReason, reason != .stopped { log.error("stopped: \(reason)") }
  /// ```
  public var stopReason: FollowerError? { core.stopReason }

  /// Drops the connection and joins again, as after a network failure (for tests).
  func forceReconnect() async throws {
    try await core.forceReconnect()
  }

  /// Stops following and returns once the I/O thread has ended; unresolved receipts fail with
  /// ``FollowerError/stopped``. The store keeps the last state.
  public func stop() async {
    await core.stop()
  }
}
