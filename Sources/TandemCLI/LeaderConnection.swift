import CommandLineKit
import TandemSync
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options every `tandem` command that talks to a leader shares: `--leader ENDPOINT[,...]`
/// (or the `TANDEM_LEADER` environment variable), `--timeout SECONDS`, and for a leader with
/// CURVE keys `--key FILE --leader-key KEY` (or `TANDEM_KEY`, `TANDEM_LEADER_KEY`).
///
/// Several endpoints, separated by commas, name an active leader and its standbys: a request
/// goes to the first; a standby's `REDIRECT` sends it on to the holder of the lease, and one
/// that knows none (or a silent endpoint, for a request that changes nothing) to the next.
public struct LeaderConnection: Sendable, Equatable {
  /// The leaders' control endpoints, in the order given (never empty), e.g.
  /// `["tcp://a:5600", "tcp://b:5600"]`.
  public var leaders: [String]
  /// The first leader endpoint given, e.g. `tcp://127.0.0.1:5600`.
  public var leader: String { leaders[0] }
  /// How long to wait for the leader to answer.
  public var timeout: Duration
  /// The key pair and the pinned leader key, for a leader with CURVE keys.
  public var security: FollowerSecurity?

  /// The help lines for these options.
  public static let help = """
      --leader ENDPOINT[,ENDPOINT...]
                          the leader's control endpoint, e.g. tcp://127.0.0.1:5600; for a
                          leader with standbys, every leader's, separated by commas: a
                          standby's REDIRECT is followed to the active leader, and an
                          endpoint that does not answer (except to an action or a
                          STEP-DOWN) moves on to the next (default: the TANDEM_LEADER
                          environment variable)
      --timeout SECONDS   how long to wait for the leader (default 5)
    """ + "\n" + KeyOptions.help

  /// A connection to `leader`, waiting at most `timeout` for each reply.
  public init(
    leader: String, timeout: Duration = .seconds(5), security: FollowerSecurity? = nil
  ) {
    self.init(leaders: [leader], timeout: timeout, security: security)
  }

  /// A connection to the first of `leaders` (at least one) that serves, following standbys'
  /// redirects, waiting at most `timeout` for each reply.
  public init(
    leaders: [String], timeout: Duration = .seconds(5), security: FollowerSecurity? = nil
  ) {
    precondition(!leaders.isEmpty, "a connection needs at least one leader endpoint")
    self.leaders = leaders
    self.timeout = timeout
    self.security = security
  }

  /// Reads `--leader`, `--timeout`, `--key` and `--leader-key` from `arguments`; `environment`
  /// stands in for `TANDEM_LEADER`, `keyEnvironment` for `TANDEM_KEY` and `TANDEM_LEADER_KEY`
  /// (the process environment when `nil`).
  public init(
    _ arguments: inout CommandLineArguments, environment: String?? = nil,
    keyEnvironment: [String: String]? = nil
  ) throws(UsageError) {
    let given = arguments.option("leader")
    if given?.isEmpty == true {
      throw UsageError(
        "--leader is empty: give the leader's control endpoint, e.g. --leader "
          + "tcp://127.0.0.1:5600")
    }
    let fallback = (environment ?? Self.environmentLeader()).flatMap { $0.isEmpty ? nil : $0 }
    guard let leader = given ?? fallback else {
      throw arguments.missing(
        "leader",
        "give the leader's control endpoint (the line `counter leader` prints first), e.g. "
          + "--leader tcp://127.0.0.1:5600, or set TANDEM_LEADER")
    }
    let leaders = leader.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0.trimmingPrefix(" "))
    }
    for endpoint in leaders {
      try Self.validate(
        endpoint, named: given == nil ? "TANDEM_LEADER '\(endpoint)'" : "'\(endpoint)'")
    }
    let seconds = try arguments.integer("timeout", default: 5, in: 1...3600)
    self.init(
      leaders: leaders, timeout: .seconds(seconds),
      security: try KeyOptions.follower(&arguments, environment: keyEnvironment))
  }

  /// Checks that `leader` is an endpoint another process can connect to: `ipc://PATH`, or
  /// `tcp://HOST:PORT` with a host (not the `*` of a bind) and a port in 1...65535. The
  /// messages call it `name`, which says where it came from.
  private static func validate(_ leader: String, named name: String) throws(UsageError) {
    guard let endpoint = Endpoint(parsing: leader), !endpoint.address.isEmpty,
      ["tcp", "ipc"].contains(endpoint.transport)
    else {
      throw UsageError("\(name) is not an endpoint: use tcp://HOST:PORT or ipc://PATH")
    }
    guard endpoint.transport == "tcp" else { return }
    let address = endpoint.address
    guard let colon = address.lastIndex(of: ":") else {
      throw UsageError("\(name) has no port: use tcp://HOST:PORT, e.g. tcp://127.0.0.1:5600")
    }
    let host = address[..<colon]
    if host.isEmpty || host == "*" {
      throw UsageError(
        "\(name) has a wildcard host, which is for binding: give the leader's host, "
          + "e.g. tcp://127.0.0.1:5600")
    }
    guard let port = endpoint.port, port != 0 else {
      throw UsageError(
        "\(name) has no valid port: use tcp://HOST:PORT with a port in 1...65535, "
          + "e.g. tcp://127.0.0.1:5600")
    }
  }

  private static func environmentLeader() -> String? {
    guard let value = getenv("TANDEM_LEADER") else { return nil }
    return String(cString: value)
  }
}
