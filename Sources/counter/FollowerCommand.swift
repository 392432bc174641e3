import CommandLineKit
import CounterExample
import Foundation
import StatePatch
import Synchronization
import Tandem
import TandemMetrics
import TandemSync

/// `counter follower`: a replica of the count, interactive in a terminal or sending a load.
let followerCommand = Command(
  name: "follower",
  summary: "Run a follower: show the shared count live and change it, or send a load.",
  usage: """
    --leader ENDPOINT [--increment N] [--notes N] [options]

    Interactive (standard input is a terminal, no --increment or --notes): shows the count and
    redraws it on every change; press + to increment, - to decrement, q to quit.

    With --increment N (and/or --notes N): sends N actions, at most --window at once, waits until
    this replica shows each one (read-your-writes, checked on every receipt), prints a summary
    line and exits, or keeps following with --stay. SIGINT or SIGTERM during the load ends it:
    the follower sends no more, waits for the receipts of what it sent, prints the summary and
    exits (or keeps following with --stay); a second signal exits at once. Without a terminal
    and without a load it follows until SIGINT or SIGTERM.

    Options:
      --leader ENDPOINT     the leader's control endpoint, or the endpoints of standby leaders
                            separated by commas (default: TANDEM_LEADER)
    \(SecurityOptions.followerHelp)
      --client-id ID        this follower's client id (default: a new random id per process)
      --increment N         send N counter.increment actions (at most 1000000000)
      --notes N             then send N counter.note actions (at most 1000000000)
      --note-bytes N        the size of each note (default 1024)
      --window N            receipts awaited at once (default 64)
      --stay                after the load, keep following until SIGINT or SIGTERM
      --json                print the summary as one JSON object
      --status-file PATH    rewrite PATH every 100 ms (and at exit) with this follower's
                            statistics, state and load report, as JSON
      --hwm N               receive high-water mark of the updates socket (default 100000)
      --silence-ms N        reconnect when the leader is silent this long (default 2000)
      --metrics HOST:PORT   serve Prometheus metrics at http://HOST:PORT/metrics (port 0: a
                            free one; the log says which)

    Exit status: 0 when done (or stopped by SIGINT or SIGTERM); 1 when an action failed or
    read-your-writes was violated; 64 on a usage error; 69 when the leader did not answer
    or the metrics address cannot be bound;
    74 when the summary cannot be written to standard output, or the status file cannot be
    written there (a directory, a FIFO or a device, a directory that does not exist or cannot
    be written); 76 when the leader refused this follower (another schema, or another process
    took its client id over while this one was away: its unanswered actions may or may not
    have been applied); 77 when the leader refused this follower's CURVE keys, or the key's
    role (write) or client id.
    """,
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["stay", "json"])
    let environment = ProcessInfo.processInfo.environment["TANDEM_LEADER"]
    guard let leader = arguments.option("leader") ?? environment else {
      throw arguments.missing(
        "leader",
        "give the control endpoint `counter leader` printed, e.g. --leader "
          + "tcp://127.0.0.1:5600")
    }
    let leaders = FollowerConfiguration.endpoints(leader)
    guard !leaders.isEmpty else {
      throw UsageError("--leader is empty: give the leader's control endpoint")
    }
    var configuration = FollowerConfiguration(leaders: leaders)
    do throws(SecurityOptions.Problem) {
      configuration.security = try SecurityOptions.follower(
        key: arguments.option("key"), leaderKey: arguments.option("leader-key"))
    } catch {
      throw UsageError(error.description)
    }
    if let client = arguments.option("client-id") { configuration.clientID = client }
    configuration.updatesHighWaterMark = Int32(
      try arguments.integer("hwm", default: 100_000, in: 1...10_000_000))
    configuration.silenceLimit = .milliseconds(
      try arguments.integer("silence-ms", default: 2000, in: 100...600_000))
    // Bounded so that their sum cannot overflow (a billion actions take hours anyway).
    let load = CounterLoad(
      increments: try arguments.integer("increment", default: 0, in: 0...1_000_000_000),
      notes: try arguments.integer("notes", default: 0, in: 0...1_000_000_000),
      noteBytes: try arguments.integer("note-bytes", default: 1024, in: 1...(8 << 20)),
      window: try arguments.integer("window", default: 64, in: 1...10_000))
    let stay = arguments.flag("stay")
    let json = arguments.flag("json")
    let statusPath = arguments.option("status-file")
    let metricsAt = try arguments.option(
      "metrics", expected: MetricsAddress.expected, MetricsAddress.init)
    try arguments.finish()
    if let statusPath { try StatusFile.check(statusPath) }

    let interactive = load.increments + load.notes == 0 && isatty(STDIN_FILENO) == 1
    if interactive, ProcessInfo.processInfo.environment["TANDEM_LOG"] == nil {
      // Log lines would break the one redrawn line; errors still show.
      TandemLogging.bootstrapStandard(level: .error)
    }
    // Raw mode before joining, so keys typed while the follower joins are kept, not flushed.
    let terminal = interactive ? RawTerminal() : nil
    let shutdown = Shutdown(terminal: terminal)
    // While a load runs, the first SIGINT or SIGTERM ends it (its report is printed), and a
    // second one ends the process at once.
    let stopping = Atomic(false)
    let loading = Atomic(load.increments + load.notes > 0 && !interactive)
    TerminationSignals.onTermination { _ in
      if loading.load(ordering: .relaxed) {
        stopping.store(true, ordering: .relaxed)
        _ = TerminationSignals.wait()
      }
      shutdown.run()
      exit(0)
    }
    if terminal != nil { writeOut("joining \(leader)...") }
    let follower: Follower<CounterState>
    do {
      follower = try join(configuration)
    } catch {
      shutdown.run()
      throw error
    }
    do {
      shutdown.attach(
        try unavailable {
          try MetricsServer.start(
            serving: [follower.metrics], at: metricsAt, label: "counter-follower")
        })
    } catch {
      shutdown.run()
      throw error
    }
    let status = statusPath.map { StatusFile(path: $0, follower: follower) }
    status?.start()
    shutdown.attach(follower, status: status)

    if let terminal {
      try runInteractive(follower, terminal: terminal)
      shutdown.run()
      return
    }
    if load.increments + load.notes > 0 {
      let report = try blockingAsync {
        await load.run(on: follower) { stopping.load(ordering: .relaxed) }
      }
      loading.store(false, ordering: .relaxed)
      status?.record(report)
      var encoder = StateEncoder()
      do {
        try writeLine(json ? try encoder.encode(report).canonicalText : report.summary)
      } catch {
        shutdown.run()
        throw error
      }
      if !stay {
        let stopReason = follower.stopReason
        shutdown.run()
        if case .refused(let code, let message) = stopReason {
          throw CommandFailure(
            .protocolError,
            "the leader refused this follower (\(code)): \(message); \(report.failed) actions "
              + "failed")
        }
        if report.failed + report.rejected + report.violations > 0 {
          throw CommandFailure(.failure, "some actions failed or broke read-your-writes")
        }
        return
      }
    }
    // Follow until SIGINT or SIGTERM: the signal thread shuts down and exits.
    while true { pause() }
  })

/// Joins the leader, turning the follower's errors into exit statuses.
private func join(_ configuration: FollowerConfiguration) throws -> Follower<CounterState> {
  do {
    return try blockingAsync {
      try await Follower<CounterState>(configuration: configuration, registry: counterRegistry)
    }
  } catch let error as FollowerError {
    switch error {
    case .invalidEndpoint, .invalidClientID: throw UsageError(error.description)
    case .authenticationFailed, .refused(code: .unauthorized, _):
      throw CommandFailure(.noPermission, error.description)
    case .refused: throw CommandFailure(.protocolError, error.description)
    default: throw CommandFailure(.unavailable, "\(error): is the leader running there?")
    }
  }
}

/// Shows the count and applies keys until `q`, Ctrl-D or the end of input (Ctrl-C is SIGINT,
/// handled by the signal thread).
private func runInteractive(_ follower: Follower<CounterState>, terminal: RawTerminal) throws {
  let screen = CounterScreen(client: follower.clientID)
  follower.store.subscribe(screen)
  let client = follower.clientID
  while let key = terminal.readKey() {
    let action: any Action
    switch key {
    case UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "k"):
      action = IncrementCounter(client: client)
    case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "j"):
      action = DecrementCounter(client: client)
    case UInt8(ascii: "q"), UInt8(ascii: "Q"), 4:
      follower.store.unsubscribe(screen)
      return
    default:
      continue
    }
    do {
      _ = try follower.send(action)
    } catch {
      screen.show(problem: "\(error)")
    }
  }
  follower.store.unsubscribe(screen)
}

/// Redraws the counter's line on every new state, on the follower's thread.
private final class CounterScreen: StoreSubscriber, Sendable {
  let client: String

  init(client: String) {
    self.client = client
  }

  func newState(state: CounterState) {
    writeOut("\r\u{1B}[2K" + CounterView.line(state, client: client))
  }

  func show(problem: String) {
    writeOut("\r\u{1B}[2K" + problem + "\r\n")
  }
}
