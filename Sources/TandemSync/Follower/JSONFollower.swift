import StatePatch
import Tandem
import TandemProtocol

/// A follower for programs without a Swift state type: the replica is a ``StatePatch/JSONValue``
/// and actions are sent as a tag and a JSON payload. The `tandem` CLI uses it.
///
/// ```swift
/// let follower = try await JSONFollower(configuration: FollowerConfiguration(leader: endpoint))
/// print(follower.store.state.canonicalText)
/// let sequence = try await follower.send(tag: "counter.increment", payload: [:]).applied()
/// ```
///
/// Like a ``Follower``, it stops when ``stop()`` is called or, without waiting, when the last
/// reference to it is released.
public final class JSONFollower: Sendable {
  /// The replica store, holding the leader's state as JSON.
  public var store: Store<JSONValue> { core.store }
  /// This follower's client id.
  public var clientID: String { core.configuration.clientID }

  private let core: FollowerCore<JSONReplicaModel>

  /// Joins the leader (with the `*` fingerprint); returns once the replica holds its state.
  public init(configuration: FollowerConfiguration) async throws(FollowerError) {
    core = try await FollowerCore(
      configuration: configuration, fingerprint: SchemaFingerprint.any,
      makeModel: { JSONReplicaModel() })
    let log = TandemLogger(label: "follower[\(configuration.clientID)]")
    core.store.setDispatchInterceptor { (action: any Action) -> Bool in
      log.error(
        "dropped \(type(of: action)): a JSONFollower forwards actions only with send(tag:payload:)")
      return true
    }
  }

  /// Forwards an action given as its registered tag and its JSON payload.
  ///
  /// - Throws: ``FollowerError/outboxFull(capacity:)`` at once when too many actions are
  ///   unanswered, ``FollowerError/actionTooLarge(bytes:limit:)`` for a payload too large to send.
  public func send(tag: String, payload: JSONValue) throws(FollowerError) -> Receipt {
    try core.forward(tag: tag, payload: payload.canonicalBytes())
  }

  /// The follower's I/O thread as a task executor (see ``Follower/executor``): a task that
  /// prefers it sends and resumes after `applied()` without thread switches, and must not block.
  public var executor: some TaskExecutor { core.loop }

  /// The deltas applied to the replica from now on, in order, each with its epoch. The stream
  /// buffers without bound (a consumer that falls behind costs memory, never a lost delta) and
  /// ends when the follower stops. A resync replaces the replica without a delta: compare
  /// sequences to notice one.
  public func deltas() async throws -> AsyncStream<(Epoch, Delta)> {
    try await core.deltas()
  }

  /// The replica's position and counters.
  public func statistics() async throws -> FollowerStatistics {
    try await core.statistics()
  }

  /// The follower's connection to its leader, now and at each change: see
  /// ``Follower/connectionChanges()``. `tandem watch` reports them on standard error.
  public func connectionChanges() async throws -> AsyncStream<FollowerConnection> {
    try await core.connectionChanges()
  }

  /// Why the follower stopped, nil while it runs: see ``Follower/stopReason``. `tandem watch`
  /// says it on standard error when the follower stopped by itself.
  public var stopReason: FollowerError? { core.stopReason }

  /// Stops following and returns once the I/O thread has ended; the store keeps the last state.
  public func stop() async {
    await core.stop()
  }
}
