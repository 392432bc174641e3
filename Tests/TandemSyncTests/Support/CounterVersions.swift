import CounterVersions
import Tandem
import TandemSync

/// A leader of `store`'s version for the schema tests (journal and endpoints optional).
func versionedLeader<State: Codable & Sendable>(
  _ store: Store<State>, registry: ActionRegistry, journal: String? = nil,
  control: String = "tcp://127.0.0.1:*", updates: String = "tcp://127.0.0.1:*"
) async throws -> Leader<State> {
  var configuration = LeaderConfiguration(control: control, updates: updates)
  configuration.heartbeatInterval = .milliseconds(100)
  configuration.journalPath = journal
  return try await Leader(store: store, registry: registry, configuration: configuration)
}

/// A follower of `State`'s version.
func versionedFollower<State: Codable & Sendable>(
  _: State.Type, of control: String, registry: ActionRegistry
) async throws -> Follower<State> {
  var configuration = FollowerConfiguration(leader: control)
  configuration.silenceLimit = .milliseconds(1500)
  configuration.reconnectDelay = .milliseconds(20)
  configuration.joinTimeout = .seconds(10)
  return try await Follower(configuration: configuration, registry: registry)
}
