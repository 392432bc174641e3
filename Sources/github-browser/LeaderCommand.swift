import CommandLineKit
import Foundation
import GitHubBrowser
import Tandem
import TandemJournal
import TandemMetrics
import TandemSync

/// `github-browser leader`: owns the browser's state and serves followers until SIGINT or SIGTERM.
let leaderCommand = Command(
  name: "leader",
  summary: "Run the leader: it owns the shared state and serves workers and front ends.",
  usage: """
    [--control ENDPOINT] [--updates ENDPOINT] [--journal LOCATION [--durability full|normal]]
    [--metrics HOST:PORT] [--max-queued-bytes N]
    [--standby [--lease-ms N] [--leader-id ID] [--advertise-control ENDPOINT]]

    Prints its control endpoint (what workers and front ends take as --leader) on the first line
    of standard output, then logs to standard error
    (TANDEM_LOG=LEVEL: trace, debug, info, notice, warning, error or critical; info by default;
    TANDEM_LOG_FORMAT=json for JSON lines).

    Options:
    \(SecurityOptions.leaderHelp)
      --control ENDPOINT    where the control socket binds (default tcp://127.0.0.1:*, a free port)
      --updates ENDPOINT    where the updates socket binds (default tcp://127.0.0.1:*)
      --journal LOCATION    keep the shared state (bookmarks, routes, loaded data) in this
                            journal, so a restarted leader continues where it stopped (default:
                            none; a restart starts from the empty state): an SQLite file (PATH
                            or sqlite:PATH) or a PostgreSQL database (postgres://user@host/db);
                            without --journal, the TANDEM_JOURNAL_URL environment variable
                            (keeps a password off the command line; never printed)
      --durability MODE     full (synced at every commit, the default) or normal (survives a
                            crash of the process, not of the machine)
      --metrics HOST:PORT   serve Prometheus metrics at http://HOST:PORT/metrics (port 0:
                            a free one; the log says which)
      --max-queued-bytes N  the most bytes of updates waiting for one follower that does not
                            read them (default 67108864, 64 MiB; at least 4096); past it the
                            follower misses updates and repairs the gap when it reads again
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
    configuration.maximumQueuedBytes = try arguments.integer(
      "max-queued-bytes", default: 64 << 20, in: 4096...(1 << 40))
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
    configuration.schemaVersion = browserSchemaVersion
    let store = Store<BrowserState>(reducer: browserStoreReducer, state: BrowserState())
    configuration.validate = { action, _ in validateBrowserAction(action, in: store.state) }
    let leader: any LeaderService
    do {
      leader = try blockingAsync { [configuration] in
        try await startLeaderService(
          store: store, registry: browserRegistry, configuration: configuration, standby: standby)
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
        try MetricsServer.start(serving: [leader.metrics], at: metricsAt, label: "github-leader")
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
    TandemLogger(label: "github-leader").info(
      "signal \(signal): stopping at sequence \(leader.sequence)")
    try blockingAsync { await leader.stop() }
  })
