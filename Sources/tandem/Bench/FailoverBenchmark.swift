import CommandLineKit
import Foundation
import Tandem
import TandemJournal
import TandemSync

/// `tandem bench failover`: how long followers wait when the active standby leader dies.
///
/// Two leader processes (this executable with the hidden `--leader-process`) share a
/// PostgreSQL journal and its lease as standby leaders; a follower in this process, given
/// both, sends ticks continuously with a small window of receipts. At a random moment under
/// that load the active leader is killed with SIGKILL and restarted at once as the standby, and
/// the failover is timed by `ContinuousClock`, in this process: from the kill to the moment
/// the receipt of the first tick the next leader applied resolved (the first action the new
/// leader acknowledged). The next kill comes once it has. Afterwards a new follower reads the
/// serving leader's state, which must hold every acknowledged tick exactly once.
let failoverBenchmark = Command(
  name: "failover",
  summary: "Standby leaders on PostgreSQL: time from SIGKILL of the active one to the next ack",
  usage: """
    [--kills N] [--lease-ms N] [--window N] [--silence-ms N] [--heartbeat-ms N]
           [--db postgres|postgres://...]

      --kills N         how many times the active leader is killed (default 10)
      --lease-ms N      the lease's length in milliseconds (default 1500, at least 300)
      --window N        the follower's most unresolved receipts (default 16)
      --silence-ms N    the follower reconnects when its leader is silent this long
                        (default 300)
      --heartbeat-ms N  the leaders' heartbeat interval when idle (default 100)
      --db postgres     the journal in a private cluster the benchmark starts (as root: it
                        runs as the postgres user through runuser; fsync on); the default
      --db URL          the journal in the database at URL (postgres://...), which must hold
                        no journal yet (else status 69); it keeps the run's history

    Each kill comes at a random moment 0.2 to 1 s after the load went on under the leader
    that took over from the last one (or under the first). Prints a line per kill, then the
    kills, the failover times (p50, p99, max; the targets are for a lease of 1.5 s, and the
    benchmark does not fail on them) and the exactly-once check: every acknowledged action in
    the leader's state once, none applied twice or skipped. It fails (status 1) when that
    check fails, or when no leader takes over within 30 s and 20 lease lengths.
    """,
  run: { words in
    var arguments = try CommandLineArguments(words)
    if let id = arguments.option("leader-process") {
      try FailoverBenchmarkLeader.run(id: id, arguments: &arguments)
      return
    }
    let db = arguments.option("db") ?? "postgres"
    guard let postgres = try PostgresBenchmarkTarget(option: db) else {
      throw UsageError(
        "--db takes postgres or a postgres:// URL: standby leaders share a PostgreSQL journal")
    }
    let benchmark = FailoverBenchmark(
      kills: try arguments.integer("kills", default: 10, in: 1...1000),
      leaseMilliseconds: try arguments.integer("lease-ms", default: 1500, in: 300...60_000),
      window: try arguments.integer("window", default: 16, in: 1...1000),
      silenceMilliseconds: try arguments.integer("silence-ms", default: 300, in: 50...60_000),
      heartbeatMilliseconds: try arguments.integer("heartbeat-ms", default: 100, in: 10...10_000),
      postgres: postgres)
    try arguments.finish()
    ChildProcess.terminateOnSignal()
    TandemLogging.bootstrapStandard(level: .error)
    try ChildProcess.untilTermination { try blockingAsync { try await benchmark.run() } }
  }
)

struct FailoverBenchmark: Sendable {
  var kills: Int
  var leaseMilliseconds: Int
  var window: Int
  var silenceMilliseconds: Int
  var heartbeatMilliseconds: Int
  var postgres: PostgresBenchmarkTarget

  /// The longest a takeover may take before the benchmark gives up.
  private var takeoverLimit: Duration { .seconds(30) + .milliseconds(leaseMilliseconds) * 20 }

  func run() async throws {
    guard let journal = try postgres.database(run: 0) else {
      preconditionFailure("every PostgreSQL target has a database for the first run")
    }
    let place: String
    switch postgres {
    case .privateCluster: place = "a private cluster (fsync on)"
    case .given: place = postgres.description
    }
    print(
      "2 standby leader processes, lease \(leaseMilliseconds) ms, heartbeat"
        + " \(heartbeatMilliseconds) ms, journal in \(place); 1 follower in this process,"
        + " window \(window), silence limit \(silenceMilliseconds) ms; \(kills) SIGKILLs of the"
        + " active leader; load average before: \(loadAverage())")
    let folder = NSTemporaryDirectory() + "tandem-failover-\(UInt32.random(in: .min ... .max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var leaders = LeaderProcesses(
      folder: folder, journal: journal, leaseMilliseconds: leaseMilliseconds,
      heartbeatMilliseconds: heartbeatMilliseconds)
    defer { leaders.endAll() }
    try leaders.start("a")
    try leaders.start("b")
    try await waitForHolder(journal: journal, leaders: leaders)

    var configuration = FollowerConfiguration(leaders: leaders.controlEndpoints)
    configuration.silenceLimit = .milliseconds(silenceMilliseconds)
    configuration.joinTimeout = takeoverLimit
    let follower = try await Follower<FailoverBenchmarkState>(
      configuration: configuration, registry: failoverBenchmarkRegistry)
    let sender = FailoverSender(follower: follower, window: window)
    let sending = Task(executorPreference: follower.executor) { await sender.run() }
    let clock = ContinuousClock()

    var failovers: [Double] = []
    do {
      // The load runs under the first leader.
      _ = try await firstTick(after: nil, sender: sender, follower: follower, leaders: leaders)
      for kill in 1...kills {
        try await Task.sleep(for: .milliseconds(Int.random(in: 200...1000)))
        guard let victim = follower.store.state.terms.last?.leader, leaders.isRunning(victim)
        else {
          throw CommandFailure(.failure, "no running leader process serves before kill \(kill)")
        }
        let killed = clock.now
        leaders.kill(victim)
        try leaders.start(LeaderProcesses.slot(of: victim))
        let (successor, acknowledged) = try await firstTick(
          after: victim, sender: sender, follower: follower, leaders: leaders)
        let seconds = (acknowledged - killed).seconds
        failovers.append(seconds)
        print(
          "kill \(kill): \(victim) killed, \(successor) took over; first acknowledgement after"
            + " \(BenchmarkTable.format(seconds, decimals: 3)) s")
      }
    } catch {
      // Not waiting for the sender: its receipts may wait for a leader that never comes.
      sender.stop()
      await follower.stop()
      throw error
    }
    sender.stop()
    let report = await sending.value
    let check = try await checkExactlyOnce(
      report, replica: follower, leaders: leaders.controlEndpoints)
    await follower.stop()

    let samples = Samples(failovers)
    var table = BenchmarkTable(title: "failover", columns: ["measure", "figure", "target"])
    table.add(["kills", String(failovers.count), ""])
    table.add(["failover p50 (s)", BenchmarkTable.format(samples.median, decimals: 3), "<= 2"])
    table.add(["failover p99 (s)", BenchmarkTable.format(samples.percentile(99), decimals: 3), ""])
    table.add([
      "failover max (s)", BenchmarkTable.format(samples.values.max()!, decimals: 3), "<= 5",
    ])
    table.add(["actions acknowledged", BenchmarkTable.format(Double(report.acknowledged)), ""])
    table.add(["receipts failed", String(report.failed), "0"])
    table.add(["exactly once", check.holds ? "yes" : "no", "yes"])
    table.print()
    print("exactly once: \(check.detail)")
    guard check.holds else {
      throw CommandFailure(.failure, "acknowledged actions were lost or applied twice")
    }
  }

  /// Waits until a leader process other than `victim` (any, for nil) has applied a tick in a
  /// term after `victim`'s last, and the tick's receipt resolved; returns that leader's id and
  /// when the receipt resolved.
  private func firstTick(
    after victim: String?, sender: FailoverSender, follower: Follower<FailoverBenchmarkState>,
    leaders: LeaderProcesses
  ) async throws -> (leader: String, resolved: ContinuousClock.Instant) {
    let deadline = ContinuousClock.now + takeoverLimit
    while true {
      let terms = follower.store.state.terms
      let start = victim.flatMap { victim in terms.lastIndex { $0.leader == victim } } ?? -1
      if start + 1 < terms.count {
        let term = terms[start + 1]
        if let resolved = sender.resolution(ofTick: term.firstTick) {
          return (term.leader, resolved)
        }
      }
      guard ContinuousClock.now < deadline else {
        throw CommandFailure(
          .failure,
          victim.map { "no leader took over from \($0) within \(takeoverLimit)" }
            ?? "no leader served within \(takeoverLimit)")
      }
      try leaders.checkRunning()
      try await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Waits until one of the leader processes holds the lease (so that the follower joins a
  /// leader that serves, rather than waiting for one that failed).
  private func waitForHolder(
    journal: String, leaders: LeaderProcesses
  ) async throws {
    let lease = try PostgresLease(connection: journal)
    let deadline = ContinuousClock.now + takeoverLimit
    while try lease.current().map({ $0.isExpired }) ?? true {
      try leaders.checkRunning()
      guard ContinuousClock.now < deadline else {
        throw CommandFailure(.failure, "no leader process took the lease within \(takeoverLimit)")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Whether the serving leader's state, as a new follower reads it, holds every tick the
  /// sender saw acknowledged exactly once, and no other; and the sender's replica equals it.
  private func checkExactlyOnce(
    _ report: FailoverSender.Report, replica: Follower<FailoverBenchmarkState>, leaders: [String]
  ) async throws -> (holds: Bool, detail: String) {
    var configuration = FollowerConfiguration(leaders: leaders)
    configuration.joinTimeout = takeoverLimit
    let reader = try await Follower<FailoverBenchmarkState>(
      configuration: configuration, registry: failoverBenchmarkRegistry)
    let state: FailoverBenchmarkState = reader.store.state
    await reader.stop()
    let holds =
      report.failed == 0 && state.applied == report.acknowledged && state.duplicates == 0
      && state.skipped == 0 && state.next == report.sent + 1 && replica.store.state == state
    let detail =
      "sent \(report.sent), acknowledged \(report.acknowledged), failed \(report.failed);"
      + " the leader's state: applied \(state.applied), applied twice \(state.duplicates),"
      + " skipped \(state.skipped), terms \(state.terms.count);"
      + " the sender's replica \(replica.store.state == state ? "equals" : "differs from") it"
    return (holds, detail)
  }
}
