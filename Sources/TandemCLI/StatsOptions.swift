import CommandLineKit

/// The options of `tandem stats`: the leader, `--json`, and `--all`, and `--max-lag` for health checks.
public struct StatsOptions: Sendable, Equatable {
  /// The leader and how long to wait for it.
  public var connection: LeaderConnection
  /// Machine-readable output: the statistics as one canonical JSON object.
  public var json: Bool
  /// List every follower the leader tracks and the ledger's clients, not only the connected
  /// followers.
  public var all: Bool
  /// Fail (status 1) when a follower lags more than this many sequences.
  public var maximumLag: UInt64?

  /// Reads the options from the command's words; `environment` stands in for `TANDEM_LEADER`.
  public init(arguments words: [String], environment: String?? = nil) throws(UsageError) {
    var arguments = try CommandLineArguments(words, flags: ["json", "all"])
    connection = try LeaderConnection(&arguments, environment: environment)
    json = arguments.flag("json")
    all = arguments.flag("all")
    if let text = arguments.option("max-lag") {
      guard let value = UInt64(text) else {
        throw UsageError(
          "--max-lag takes a whole number of sequences, e.g. --max-lag 100, not '\(text)'")
      }
      maximumLag = value
    }
    try arguments.finish()
  }
}
