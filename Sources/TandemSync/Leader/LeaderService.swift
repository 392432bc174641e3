import Tandem

/// What a leader process runs its followers' service through: a ``Leader``, or a
/// ``StandbyLeader`` that runs one while it holds the lease. A command that offers both serves,
/// reloads and stops either the same way.
///
/// ```swift
/// let service: any LeaderService
/// if let standby {
///   service = try await StandbyLeader(
///     store: store, registry: registry, configuration: configuration, standby: standby)
/// } else {
///   service = try await Leader(store: store, registry: registry, configuration: configuration)
/// }
/// print(service.controlEndpoint)
/// ```
public protocol LeaderService: AnyObject, Sendable {
  /// The bound control endpoint followers are given.
  var controlEndpoint: String { get }
  /// The metrics to serve (see ``MetricsRegistry``).
  var metrics: MetricsRegistry { get }
  /// The sequence of the newest applied action (0 while a standby serves nothing).
  var sequence: UInt64 { get }
  /// Reads the key store again; see ``Leader/reloadKeys()``.
  @discardableResult
  func reloadKeys() async throws(LeaderError) -> (count: Int, removed: [String])
  /// Stops serving; see ``Leader/stop()`` and ``StandbyLeader/stop()``.
  func stop() async
}

extension Leader: LeaderService {}

/// Starts the service of a leader process: a ``StandbyLeader`` with `standby` (sharing a
/// PostgreSQL journal with other leader processes), else a ``Leader``.
///
/// - Throws: what ``StandbyLeader/init(store:registry:configuration:standby:)`` or
///   ``Leader/init(store:registry:configuration:)`` throws.
public func startLeaderService<State: Codable & Sendable>(
  store: Store<State>, registry: ActionRegistry, configuration: LeaderConfiguration,
  standby: StandbyConfiguration?
) async throws(LeaderError) -> any LeaderService {
  if let standby {
    return try await StandbyLeader(
      store: store, registry: registry, configuration: configuration, standby: standby)
  }
  return try await Leader(store: store, registry: registry, configuration: configuration)
}
