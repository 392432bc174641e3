import CommandLineKit
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Joins the leader as a JSON follower, turning the follower's errors into exit statuses.
func joinLeader(_ configuration: FollowerConfiguration) async throws -> JSONFollower {
  do {
    return try await JSONFollower(configuration: configuration)
  } catch {
    switch error {
    case .invalidEndpoint: throw UsageError(error.description)
    case .refused: throw CommandFailure(.protocolError, error.description)
    default:
      throw CommandFailure(
        .unavailable, "\(error): is the leader running, and is that its control endpoint?")
    }
  }
}

/// Writes `text` and a newline to standard output at once (no buffering, so a pipe sees every
/// line as soon as it is printed).
func writeLine(_ text: String) {
  let line = text + "\n"
  line.utf8CString.withUnsafeBufferPointer { bytes in
    var offset = 0
    let count = bytes.count - 1
    while offset < count {
      let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
