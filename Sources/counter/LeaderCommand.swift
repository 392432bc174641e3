import CommandLineKit
import CounterExample
import Foundation
import Tandem
import TandemJournal
import TandemMetrics
import TandemSync

/// `counter leader`: owns the counter's state and serves followers until SIGINT or SIGTERM.
let leaderCommand = Command(
  name: "leader",
  summary: "Run the leader: it owns the count and serves followers until SIGINT or SIGTERM.",
  usage: """
    [--control ENDPOINT] [--updates ENDPOINT] [--heartbeat-ms N] [--hwm N]
    [--max-queued-bytes N] [--journal LOCATION [--durability full|normal]]
    [--standby [--lease-ms N] [--leader-id ID] [--advertise-control ENDPOINT]]
    [--metrics HOST:PORT]

    Prints its control endpoint (the one followers and `tandem` are given) on the first line of
    standard output, then logs to standard error
    (TANDEM_LOG=LEVEL: trace, debug, info, notice, warning, error or critical; info by default;
    TANDEM_LOG_FORMAT=json for JSON lines).

    Options:
    \(SecurityOptions.leaderHelp)
      --control ENDPOINT    where the control socket binds (default tcp://127.0.0.1:*, a free
                            port; use tcp://*:5600 to serve other hosts)
      --updates ENDPOINT    where the updates socket binds (default tcp://127.0.0.1:*)
      --advertise ENDPOINT  the updates endpoint followers are told to connect to (default: the
                            bound one; followers replace a wildcard host by the leader's host)
      --heartbeat-ms N      heartbeat interval when idle, in milliseconds (default 500)
      --hwm N               send high-water mark of the updates socket, in messages per
                            follower (default 100000); past it deltas are dropped and the
                            follower repairs the gap
      --max-queued-bytes N  the most bytes of updates waiting for one follower that does not
                            read them (default 67108864, 64 MiB; at least 4096); past it the
                            follower misses updates and repairs the gap when it reads again
      --journal LOCATION    keep the history in this journal: a restart recovers the count,
                            and an acknowledged action survives kill -9 (default: none, in
                            memory; a new history at every start). An SQLite file (PATH or
                            sqlite:PATH) or a PostgreSQL database (postgres://user@host/db);
                            without --journal, the TANDEM_JOURNAL_URL environment variable
                            (keeps a password off the command line; never printed)
      --metrics HOST:PORT   serve Prometheus metrics at http://HOST:PORT/metrics (port 0: a
                            free one; the log says which)
      --durability MODE     full (synced at every commit; survives power loss, the default)
                            or normal (survives a crash of the process, not of the machine)
    \(StandbyOptions.help)

    SIGHUP reloads the key store (the connections of keys it no longer holds are cut).

    Exit status: 0 after a clean stop on SIGINT or SIGTERM, 64 on a usage error (an endpoint
    that is not one included), 69 when an endpoint cannot be bound or the journal not opened,
    74 when standard output cannot be written (the leader then stops at once).
    """,
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["standby"])
    var configuration = LeaderConfiguration(
      control: arguments.option("control") ?? "tcp://127.0.0.1:*",
      updates: arguments.option("updates") ?? "tcp://127.0.0.1:*")
    configuration.advertisedUpdates = arguments.option("advertise")
    configuration.heartbeatInterval = .milliseconds(
      try arguments.integer("heartbeat-ms", default: 500, in: 10...60_000))
    configuration.updatesHighWaterMark = Int32(
      try arguments.integer("hwm", default: 100_000, in: 1...10_000_000))
    configuration.maximumQueuedBytes = try arguments.integer(
      "max-queued-bytes", default: 64 << 20, in: 4096...(1 << 40))
    let variable = JournalLocation.environmentVariable
    if let journal = arguments.option("journal") ?? ProcessInfo.processInfo.environment[variable] {
      guard !journal.isEmpty else {
        throw UsageError(
          "--journal is empty (or \(variable) is, without --journal): give the journal "
            + "file's path or a postgres:// URL")
      }
      configuration.journalLocation = JournalLocation(parsing: journal)
    }
    if let mode = arguments.option("durability") {
      guard let durability = Durability(rawValue: mode), durability != .off else {
        throw UsageError("--durability takes full or normal (leave out --journal for none)")
      }
      configuration.journal.durability = durability
    }
    let metricsAt = try arguments.option(
      "metrics", expected: MetricsAddress.expected, MetricsAddress.init)
    do throws(SecurityOptions.Problem) {
      configuration.security = try SecurityOptions.leader(
        key: arguments.option("key"), keyStore: arguments.option("keys"))
    } catch {
      throw UsageError(error.description)
    }
    let standby: StandbyConfiguration?
    do throws(StandbyOptions.Problem) {
      standby = try StandbyOptions.configuration(
        standby: arguments.flag("standby"), leaseMilliseconds: arguments.option("lease-ms"),
        leaderID: arguments.option("leader-id"),
        advertisedControl: arguments.option("advertise-control"))
    } catch {
      throw UsageError(error.description)
    }
    try arguments.finish()
    ReloadSignal.block()

    let store = Store<CounterState>(reducer: counterReducer, state: CounterState())
    let leader: any LeaderService
    do {
      leader = try blockingAsync { [configuration] in
        try await startLeaderService(
          store: store, registry: counterRegistry, configuration: configuration, standby: standby)
      }
    } catch {
      switch error as? LeaderError {
      case .invalidEndpoint?, .standbyNeedsSharedJournal?: throw UsageError("\(error)")
      default: break
      }
      throw CommandFailure(.unavailable, "cannot start the leader: \(error)")
    }
    let metrics: MetricsServer?
    do {
      metrics = try unavailable {
        try MetricsServer.start(serving: [leader.metrics], at: metricsAt, label: "counter-leader")
      }
      try writeLine(leader.controlEndpoint)
    } catch {
      // Nobody can be told where it is: stop rather than serve unseen.
      try blockingAsync { await leader.stop() }
      throw error
    }
    ReloadSignal.onHangup {
      try? blockingAsync { _ = try await leader.reloadKeys() }
    }
    let signal = TerminationSignals.wait()
    metrics?.stop()
    TandemLogger(label: "counter-leader").info(
      "signal \(signal): stopping at sequence \(leader.sequence)")
    try blockingAsync { await leader.stop() }
  })
