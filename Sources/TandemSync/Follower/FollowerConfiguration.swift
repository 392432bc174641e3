import TandemProtocol

/// How a follower finds its leader, identifies itself, and paces its recovery.
public struct FollowerConfiguration: Sendable {
  /// The leader's control endpoint, e.g. `tcp://leader.example:5600`.
  public var leader: String
  /// The control endpoints of the other leaders sharing the leader's journal (its standbys),
  /// e.g. `["tcp://leader-b.example:5600"]`. The follower joins ``leader`` first and whichever
  /// holds the lease after that: a standby answers with a redirect to the lease holder, and a
  /// leader gone silent makes the follower try the next endpoint, round the list.
  public var standbyLeaders: [String] = []
  /// This follower's client id, which numbers its actions. By default a new random id per
  /// process: a restarted process starts a new numbering, and actions it had not seen
  /// acknowledged before it died are gone with it. Give a stable id (and keep one process per
  /// id) to continue a numbering across restarts: the leader tells the follower the last number
  /// it used up (applied or rejected). It has 1 to 256 bytes of UTF-8; a follower refuses any
  /// other with ``FollowerError/invalidClientID(_:)``.
  public var clientID: String
  /// How long the leader may be silent (no delta, heartbeat or reply) before the follower
  /// reconnects; a few leader heartbeat intervals.
  public var silenceLimit: Duration = .seconds(2)
  /// The receive high-water mark of the updates socket, in messages: past it ZeroMQ drops
  /// deltas, and the follower repairs the gap by catch-up.
  public var updatesHighWaterMark: Int32 = 100_000
  /// The first delay before reconnecting; it doubles up to ``maximumReconnectDelay``.
  public var reconnectDelay: Duration = .milliseconds(100)
  public var maximumReconnectDelay: Duration = .seconds(5)
  /// How long the initial join may take before it fails.
  public var joinTimeout: Duration = .seconds(10)
  /// The most actions held unacknowledged; past it `send` throws ``FollowerError/outboxFull(capacity:)``.
  public var outboxCapacity = 10_000
  /// An action unanswered this long is sent again (the leader answers duplicates from its
  /// ledger, so resending is always safe).
  public var resendAfter: Duration = .seconds(2)
  /// The largest action JSON `send` accepts, in bytes; past it `send` throws
  /// ``FollowerError/actionTooLarge(bytes:limit:)``. Keep it below the leader's
  /// ``LeaderConfiguration/maxMessageSize`` (16 MiB by default), which disconnects a follower
  /// that sends more; the default leaves 64 KiB for the message's other frames.
  public var maxActionSize = (16 << 20) - (64 << 10)
  /// The application version folded into the schema fingerprint; must equal the leader's.
  public var schemaVersion = "1"
  /// The follower's CURVE key pair and the leader's public key, for a leader with keys; `nil`
  /// (the default) for a leader in plain mode. A follower whose key the leader refuses, or
  /// which pins another leader key, stops with ``FollowerError/authenticationFailed(_:)``.
  public var security: FollowerSecurity?

  /// ``leader``, then ``standbyLeaders``.
  public var leaderEndpoints: [String] { [leader] + standbyLeaders }

  public init(leader: String, clientID: String = FollowerConfiguration.randomClientID()) {
    self.leader = leader
    self.clientID = clientID
  }

  /// A configuration for the leaders at `endpoints` (at least one): the first is joined first,
  /// the others are its standbys (``standbyLeaders``).
  public init(
    leaders endpoints: [String], clientID: String = FollowerConfiguration.randomClientID()
  ) {
    precondition(!endpoints.isEmpty, "a follower needs at least one leader endpoint")
    self.init(leader: endpoints[0], clientID: clientID)
    standbyLeaders = Array(endpoints.dropFirst())
  }

  /// The endpoints of a comma-separated list, as the command lines' `--leader` takes them
  /// (`tcp://a:5600,tcp://b:5600`); empty items are left out.
  public static func endpoints(_ list: String) -> [String] {
    list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
  }

  /// A random client id: 32 hexadecimal digits.
  public static func randomClientID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let digits = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
  }
}
