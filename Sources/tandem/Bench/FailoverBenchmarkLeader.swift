import CommandLineKit
import Tandem
import TandemJournal
import TandemSync

/// The leader processes of `tandem bench failover` (this executable with the hidden
/// `--leader-process ID`): a ``StandbyLeader`` of ``FailoverBenchmarkState`` with the leader id
/// `ID`, on the PostgreSQL journal at the libpq connection string `--journal`, binding `--control` and `--updates`, with a lease
/// of `--lease-ms` and heartbeats every `--heartbeat-ms`. It serves until the benchmark kills
/// it, or until SIGINT or SIGTERM, when it exits at once (status 0) without handing over: the
/// benchmark is done with it.
enum FailoverBenchmarkLeader {
  /// Starts this executable as the leader process `id`, at the endpoints of `endpoints`.
  static func start(
    _ id: String, endpoints: (control: String, updates: String), journal: String,
    leaseMilliseconds: Int, heartbeatMilliseconds: Int
  ) throws -> ChildProcess {
    try ChildProcess(
      "failover leader \(id)",
      arguments: [
        "bench", "failover", "--leader-process", id, "--journal", journal,
        "--control", endpoints.control, "--updates", endpoints.updates,
        "--lease-ms", String(leaseMilliseconds), "--heartbeat-ms", String(heartbeatMilliseconds),
      ])
  }

  static func run(id: String, arguments: inout CommandLineArguments) throws {
    try ChildProcess.endWithParent(&arguments)
    guard !id.isEmpty, id.utf8.count <= 256 else {
      throw UsageError("--leader-process takes a leader id of 1 to 256 bytes")
    }
    var configuration = LeaderConfiguration(
      control: try arguments.required("control"), updates: try arguments.required("updates"))
    // A libpq connection string (a URL or `key=value` words), as the benchmark has it.
    configuration.journalLocation = .postgres(connection: try arguments.required("journal"))
    configuration.heartbeatInterval = .milliseconds(
      try arguments.integer("heartbeat-ms", default: 100, in: 10...60_000))
    var standby = StandbyConfiguration(
      leaseLength: .milliseconds(
        try arguments.integer("lease-ms", default: 1500, in: 300...3_600_000)))
    standby.leaderID = id
    try arguments.finish()
    // Blocked before any thread starts, so that every thread inherits it and only the wait
    // below takes the signal.
    TerminationSignals.block()
    TandemLogging.bootstrapStandard(level: .error)
    let store = Store<FailoverBenchmarkState>(
      reducer: failoverBenchmarkReducer(leader: id), state: FailoverBenchmarkState())
    let leader = try blockingAsync { [configuration, standby] in
      try await StandbyLeader(
        store: store, registry: failoverBenchmarkRegistry, configuration: configuration,
        standby: standby)
    }
    _ = TerminationSignals.wait()
    withExtendedLifetime(leader) {}
  }
}
