import CommandLineKit

/// The options of `tandem failover`: the leaders (every one sharing the journal, so that the
/// next holder is found), and `--timeout-ms`, how long to wait for another leader to take over.
public struct FailoverOptions: Sendable, Equatable {
  /// The leaders and how long to wait for each reply.
  public var connection: LeaderConnection
  /// How long to wait, from the `STEP-DOWN`, for another leader to serve (`--timeout-ms`,
  /// 10 seconds by default).
  public var timeout: Duration

  /// Reads the options from the command's words; `environment` stands in for `TANDEM_LEADER`.
  public init(arguments words: [String], environment: String?? = nil) throws(UsageError) {
    var arguments = try CommandLineArguments(words)
    connection = try LeaderConnection(&arguments, environment: environment)
    let milliseconds = try arguments.integer("timeout-ms", default: 10_000, in: 1...3_600_000)
    timeout = .milliseconds(milliseconds)
    try arguments.finish()
  }
}
