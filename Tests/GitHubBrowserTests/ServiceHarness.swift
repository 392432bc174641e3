import Foundation
import GitHubBrowser
import Tandem
import TandemSync

/// A leader of the browser's state on loopback ports the system picks, the fixture API, and
/// followers of the leader, all in this process.
final class ServiceHarness: Sendable {
  let fixture: FixtureAPI
  let leader: Leader<BrowserState>

  /// The fixture API and a leader bound to `control` and `updates` (ports the system picks by
  /// default).
  init(
    control: String = "tcp://127.0.0.1:*", updates: String = "tcp://127.0.0.1:*",
    journalPath: String? = nil
  ) async throws {
    fixture = try FixtureAPI()
    leader = try await Self.leader(control: control, updates: updates, journalPath: journalPath)
  }

  /// A leader of a new, empty history of the browser's state, bound to `control` and `updates`.
  static func leader(
    control: String, updates: String, journalPath: String? = nil
  ) async throws -> Leader<BrowserState> {
    var configuration = LeaderConfiguration(control: control, updates: updates)
    configuration.journalPath = journalPath
    configuration.heartbeatInterval = .milliseconds(100)
    configuration.schemaVersion = browserSchemaVersion
    let store = Store<BrowserState>(reducer: browserStoreReducer, state: BrowserState())
    configuration.validate = { action, _ in validateBrowserAction(action, in: store.state) }
    return try await Leader(store: store, registry: browserRegistry, configuration: configuration)
  }

  /// A new follower of the leader, under `clientID`.
  func follower(
    clientID: String = FollowerConfiguration.randomClientID()
  ) async throws -> Follower<BrowserState> {
    var configuration = FollowerConfiguration(leader: leader.controlEndpoint, clientID: clientID)
    configuration.schemaVersion = browserSchemaVersion
    configuration.reconnectDelay = .milliseconds(50)
    configuration.maximumReconnectDelay = .milliseconds(500)
    return try await Follower<BrowserState>(configuration: configuration, registry: browserRegistry)
  }

  /// A client of the fixture API, with `token` if given, that retries without waiting.
  func client(token: String? = nil) -> GitHubClient {
    GitHubClient(configuration: .init(baseURL: fixture.url, token: token, retryDelay: .zero))
  }

  func stop(_ followers: [Follower<BrowserState>]) async {
    for follower in followers { await follower.stop() }
    await leader.stop()
    fixture.stop()
  }
}

/// Now, in milliseconds since 1970.
func milliseconds() -> Int64 {
  Int64(Date().timeIntervalSince1970 * 1000)
}
