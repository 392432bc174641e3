/// The standby options of the leader commands (`counter leader`, `github-browser leader`):
/// `--standby`, `--lease-ms N`, `--leader-id ID` and `--advertise-control ENDPOINT`.
///
/// ```swift
/// let standby = try StandbyOptions.configuration(
///   standby: arguments.flag("standby"), leaseMilliseconds: arguments.option("lease-ms"),
///   leaderID: arguments.option("leader-id"),
///   advertisedControl: arguments.option("advertise-control"))
/// ```
public enum StandbyOptions {
  /// The help lines of the options.
  public static let help = """
      --standby             share the PostgreSQL journal (--journal postgres://...) with other
                            leader processes: serve while holding their lease, else answer
                            followers with the active leader's endpoint and take over when its
                            lease runs out; SIGTERM hands over to a standby first
      --lease-ms N          with --standby, the lease's length in milliseconds (default 5000,
                            at least 300): a standby takes over about this long after the
                            active leader dies
      --leader-id ID        with --standby, this process's id in the lease (default
                            host:pid:random)
      --advertise-control ENDPOINT
                            with --standby, the control endpoint the lease names to followers
                            (default: the bound one; give it when binding tcp://*:PORT)
    """

  /// Why the options do not make a configuration; the message says what to give.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// The standby configuration the options give, or nil without `--standby` (when the other
  /// options must not be given either).
  public static func configuration(
    standby: Bool, leaseMilliseconds: String?, leaderID: String?, advertisedControl: String?
  ) throws(Problem) -> StandbyConfiguration? {
    guard standby else {
      let stray = [
        ("--lease-ms", leaseMilliseconds), ("--leader-id", leaderID),
        ("--advertise-control", advertisedControl),
      ].first { $0.1 != nil }
      if let stray {
        throw Problem(description: "\(stray.0) needs --standby (it sets the standby's lease)")
      }
      return nil
    }
    var configuration = StandbyConfiguration()
    if let text = leaseMilliseconds {
      guard let milliseconds = Int(text), (300...3_600_000).contains(milliseconds) else {
        throw Problem(
          description: "--lease-ms takes a whole number of milliseconds from 300 to 3600000, "
            + "not '\(text)'")
      }
      configuration.leaseLength = .milliseconds(milliseconds)
    }
    if let leaderID {
      guard !leaderID.isEmpty, leaderID.utf8.count <= 256 else {
        throw Problem(description: "--leader-id takes 1 to 256 bytes of text")
      }
      configuration.leaderID = leaderID
    }
    configuration.advertisedControl = advertisedControl
    return configuration
  }
}
