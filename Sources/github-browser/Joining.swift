import CommandLineKit
import GitHubBrowser
import TandemSync

/// Joins the leader at `leader` as a follower of the browser's state, with a quick reconnect
/// back-off; turns the follower's errors into exit statuses.
func joinLeader(_ leader: String, security: FollowerSecurity?) throws -> Follower<BrowserState> {
  let leaders = FollowerConfiguration.endpoints(leader)
  guard !leaders.isEmpty else {
    throw UsageError("--leader is empty: give the leader's control endpoint")
  }
  var configuration = FollowerConfiguration(leaders: leaders)
  configuration.security = security
  configuration.schemaVersion = browserSchemaVersion
  configuration.reconnectDelay = .milliseconds(100)
  configuration.maximumReconnectDelay = .seconds(1)
  do {
    return try blockingAsync { [configuration] in
      try await Follower<BrowserState>(configuration: configuration, registry: browserRegistry)
    }
  } catch let error as FollowerError {
    switch error {
    case .invalidEndpoint: throw UsageError(error.description)
    case .authenticationFailed, .refused(code: .unauthorized, _):
      throw CommandFailure(.noPermission, error.description)
    case .refused: throw CommandFailure(.protocolError, error.description)
    default: throw CommandFailure(.unavailable, "\(error): is the leader running there?")
    }
  }
}

/// The follower's CURVE keys from `--key` and `--leader-key` (or `TANDEM_KEY`,
/// `TANDEM_LEADER_KEY`); `nil` for a leader in plain mode.
func followerSecurity(_ arguments: inout CommandLineArguments) throws -> FollowerSecurity? {
  do throws(SecurityOptions.Problem) {
    return try SecurityOptions.follower(
      key: arguments.option("key"), leaderKey: arguments.option("leader-key"))
  } catch {
    throw UsageError(error.description)
  }
}
