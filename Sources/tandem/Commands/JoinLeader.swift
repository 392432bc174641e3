import CommandLineKit
import TandemSync

/// Joins the leader as a JSON follower, turning the follower's errors into exit statuses.
func joinLeader(_ configuration: FollowerConfiguration) async throws -> JSONFollower {
  do {
    return try await JSONFollower(configuration: configuration)
  } catch {
    switch error {
    case .invalidEndpoint: throw UsageError(error.description)
    case .authenticationFailed, .refused(code: .unauthorized, _):
      throw CommandFailure(.noPermission, error.description)
    case .refused: throw CommandFailure(.protocolError, error.description)
    default:
      throw CommandFailure(
        .unavailable, "\(error): is the leader running, and is that its control endpoint?")
    }
  }
}
