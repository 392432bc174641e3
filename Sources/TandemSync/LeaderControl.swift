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
  /// The tool's CURVE key pair and the leader's public key, for a leader with keys.
  public var security: FollowerSecurity?

  public init(
    leader: String, timeout: Duration = .seconds(5), security: FollowerSecurity? = nil
  ) {
    self.leader = leader
    self.timeout = timeout
    self.security = security
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

  /// Sends the requests's `frames` on a connection of its own and returns the reply's frames,
  /// uninterpreted: with ``security``, a CURVE connection whose handshake is watched, so that a
  /// leader refusing the keys is reported as such rather than as silence.
  ///
  /// - Throws: ``LeaderControlError``, or the ``ZMQError`` of a socket call.
  public func exchange(_ frames: [[UInt8]]) throws -> [[UInt8]] {
    guard let endpoint = Endpoint(parsing: leader) else {
      throw LeaderControlError.invalidEndpoint(leader)
    }
    let context = Context()
    let socket = try Socket(context, .dealer)
    defer { socket.close() }
    try socket.set(.linger, .zero)
    try security?.apply(to: socket)
    let monitor = try socket.monitor(HandshakeWatch.events)
    defer { monitor.stop() }
    try socket.connect(endpoint)
    try socket.send(parts: frames)
    var watch = HandshakeWatch(leader: leader, security: security)
    let poller = Poller()
    let replies = poller.add(socket)
    let events = poller.add(monitor.socket)
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      guard try poller.poll(timeout: ContinuousClock.now.duration(to: deadline)) > 0 else { break }
      if poller.events(at: replies).contains(.readable),
        let parts = try socket.receiveParts(wait: .nonBlocking)
      {
        return parts
      }
      if poller.events(at: events).contains(.readable) {
        while let event = try monitor.next(wait: .nonBlocking) {
          if let reason = watch.authenticationFailure(event) {
            throw LeaderControlError.authenticationFailed(reason)
          }
        }
      }
    }
    throw LeaderControlError.noReply(leader: leader, timeout: timeout)
  }

  private func request(_ request: ControlRequest) throws -> ControlReply {
    let parts = try exchange(request.frames)
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
  /// The leader refused the connection's CURVE handshake (see ``FollowerError/authenticationFailed(_:)``).
  case authenticationFailed(String)

  public var description: String {
    switch self {
    case .invalidEndpoint(let text):
      "'\(text)' is not an endpoint: use tcp://HOST:PORT, ipc://PATH or inproc://NAME"
    case .noReply(let leader, let timeout):
      "no reply from the leader at \(leader) within \(timeout): is it running, and is that its control endpoint?"
    case .refused(let code, let message): "the leader refused the request (\(code)): \(message)"
    case .unexpectedReply(let what): "the leader's reply is not the expected \(what)"
    case .authenticationFailed(let reason): "the leader refused the connection: \(reason)"
    }
  }
}
