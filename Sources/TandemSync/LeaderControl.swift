import StatePatch
import TandemProtocol
import ZeroMQ

/// One-shot requests to a leader's control socket, for operators' tools: statistics and a ping.
///
/// Calls block the calling thread for at most `timeout`; use them from a command-line tool's
/// main thread, not from Swift's cooperative pool.
///
/// ```swift
/// let statistics = try LeaderControl(leader: "tcp://127.0.0.1:5600").statistics()
/// print(statistics.sequence, statistics.followers.count)
/// ```
public struct LeaderControl: Sendable {
  /// The leader's control endpoint.
  public var leader: String
  /// How long to wait for the reply.
  public var timeout: Duration

  public init(leader: String, timeout: Duration = .seconds(5)) {
    self.leader = leader
    self.timeout = timeout
  }

  /// The leader's statistics (`STATS`).
  public func statistics() throws -> LeaderStatistics {
    guard case .stats(let document) = try request(.stats) else {
      throw LeaderControlError.unexpectedReply("STATS")
    }
    do {
      var decoder = StateDecoder()
      return try decoder.decode(LeaderStatistics.self, from: JSONParser().parse(document))
    } catch {
      throw LeaderControlError.unexpectedReply("STATS: \(error)")
    }
  }

  /// The leader's epoch and current sequence (`PING`).
  public func ping() throws -> (epoch: Epoch, sequence: UInt64) {
    guard
      case .pong(let epoch, let sequence) = try request(.ping(client: "tandem-cli", sequence: 0))
    else { throw LeaderControlError.unexpectedReply("PONG") }
    return (epoch, sequence)
  }

  private func request(_ request: ControlRequest) throws -> ControlReply {
    guard let endpoint = Endpoint(parsing: leader) else {
      throw LeaderControlError.invalidEndpoint(leader)
    }
    let context = Context()
    let socket = try Socket(context, .dealer)
    defer { socket.close() }
    try socket.set(.linger, .zero)
    try socket.connect(endpoint)
    try socket.send(parts: request.frames)
    guard let parts = try socket.receiveParts(wait: .timeout(timeout)) else {
      throw LeaderControlError.noReply(leader: leader, timeout: timeout)
    }
    let reply = try ControlReply(frames: parts)
    if case .error(let code, let message) = reply {
      throw LeaderControlError.refused(code: code, message: message)
    }
    return reply
  }
}

/// Why a ``LeaderControl`` request failed.
public enum LeaderControlError: Error, Sendable, Equatable, CustomStringConvertible {
  case invalidEndpoint(String)
  case noReply(leader: String, timeout: Duration)
  case refused(code: ErrorCode, message: String)
  case unexpectedReply(String)

  public var description: String {
    switch self {
    case .invalidEndpoint(let text):
      "'\(text)' is not an endpoint: use tcp://HOST:PORT, ipc://PATH or inproc://NAME"
    case .noReply(let leader, let timeout):
      "no reply from the leader at \(leader) within \(timeout): is it running, and is that its control endpoint?"
    case .refused(let code, let message): "the leader refused the request (\(code)): \(message)"
    case .unexpectedReply(let what): "the leader's reply is not the expected \(what)"
    }
  }
}
