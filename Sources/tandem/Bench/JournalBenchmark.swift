import CommandLineKit
import Foundation
import StatePatch
import Tandem
import TandemJournal
import TandemProtocol
import TandemSync

/// `tandem bench journal`: what durability costs and how fast a leader recovers, in one run:
/// 1. acknowledged actions per second with a `full` durability journal beside the same load in
///    memory (durability off), three follower processes sending with a window (ratio); with
///    `--db postgres`, also with a PostgreSQL journal, in the same run;
/// 2. the time for a leader to recover a journal of `--deltas` deltas (one million by default):
///    the journal's own read, and the whole leader start (replaying every patch onto the
///    snapshot, decoding the state, binding).
let journalBenchmark = Command(
  name: "journal",
  summary: "Leader with a full-durability journal vs in memory; recovery of 1M deltas",
  usage: "[--runs N] [--actions N] [--senders N] [--window N] [--deltas N] [--directory PATH]\n"
    + "       [--db sqlite|postgres|postgres://...]\n\n"
    + "  --db postgres  also measure a leader on a PostgreSQL journal, in a private cluster\n"
    + "                 the benchmark starts (as root: it runs as the postgres user through\n"
    + "                 runuser; fsync on), a new database for each run\n"
    + "  --db URL       the same in the database at URL (postgres://...), which must hold no\n"
    + "                 journal yet: one timed run, no warm-up; it keeps the run's history\n"
    + "  default: sqlite (the SQLite journal and memory only)",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let postgres = try PostgresBenchmarkTarget(option: arguments.option("db"))
    let benchmark = JournalBenchmark(
      runs: try arguments.integer("runs", default: 5, in: 1...101),
      load: SenderThroughput(
        items: 100,
        actions: try arguments.integer("actions", default: 20_000, in: 100...10_000_000),
        senders: try arguments.integer("senders", default: 3, in: 1...16),
        window: try arguments.integer("window", default: 256, in: 1...10_000)),
      deltas: try arguments.integer("deltas", default: 1_000_000, in: 1000...100_000_000),
      directory: try arguments.directory("directory", default: NSTemporaryDirectory()),
      postgres: postgres)
    try arguments.finish()
    ChildProcess.terminateOnSignal()
    TandemLogging.bootstrapStandard(level: .error)
    try ChildProcess.untilTermination { try blockingAsync { try await benchmark.run() } }
  }
)

struct JournalBenchmark: Sendable {
  var runs: Int
  var load: SenderThroughput
  var deltas: Int
  var directory: String
  var postgres: PostgresBenchmarkTarget?

  func run() async throws {
    print(
      "\(load.senders) follower processes, window \(load.window), \(load.actions) actions per run,"
        + " median of \(runs) runs after 1 warm-up; journal in \(directory)")
    var table = BenchmarkTable(title: "journal", columns: ["measure", "figure", "target"])
    var durable: [Double] = []
    var memory: [Double] = []
    var shared: [Double] = []
    if let postgres { print("PostgreSQL journal: \(postgres)") }
    for run in 0...runs {
      if let postgres, let connection = try postgres.database(run: run) {
        let rate = try await load.measure { configuration in
          configuration.journalLocation = .postgres(connection: connection)
        }
        if run > 0 || postgres.runsOnce { shared.append(rate.applied) }
      }
      let path = try scratchPath("durable")
      defer { removeJournal(path) }
      let full = try await load.measure { configuration in
        configuration.journalPath = path
        configuration.journal.durability = .full
      }
      let inMemory = try await load.measure()
      if run > 0 {
        durable.append(full.applied)
        memory.append(inMemory.applied)
      }
    }
    let full = Samples(durable).median
    let off = Samples(memory).median
    table.add(["acknowledged actions/s, durability full", BenchmarkTable.format(full), ">= 10,000"])
    table.add(["acknowledged actions/s, in memory", BenchmarkTable.format(off), ""])
    table.add(["full / in memory", BenchmarkTable.format(full / off, decimals: 2), ">= 0.30"])
    if !shared.isEmpty {
      let rate = Samples(shared).median
      table.add(["acknowledged actions/s, PostgreSQL", BenchmarkTable.format(rate), ">= 10,000"])
      table.add(["PostgreSQL / in memory", BenchmarkTable.format(rate / off, decimals: 2), ""])
    }

    let path = try scratchPath("recovery")
    defer { removeJournal(path) }
    let built = try buildJournal(at: path)
    table.add([
      "journal of \(BenchmarkTable.format(Double(deltas))) deltas built (s)",
      BenchmarkTable.format(built, decimals: 2), "",
    ])
    var reads: [Double] = []
    var starts: [Double] = []
    for _ in 0..<max(1, min(runs, 3)) {
      let clock = ContinuousClock()
      reads.append(
        try clock.measure {
          let journal = try Journal(path: path)
          _ = try journal.recover()
          journal.close()
        }.seconds)
      let start = clock.now
      let leader = try await SyncBenchmarkState.leader(items: 100) { configuration in
        configuration.journalPath = path
      }
      starts.append((clock.now - start).seconds)
      await leader.stop()
    }
    table.add([
      "journal recover() (s)", BenchmarkTable.format(Samples(reads).median, decimals: 2), "",
    ])
    table.add([
      "leader start from the journal (s)",
      BenchmarkTable.format(Samples(starts).median, decimals: 2), "<= 10",
    ])
    table.print()
  }

  /// Writes a journal of `deltas` one-field deltas of the 100-item state, in batches of 10,000;
  /// returns the seconds it took.
  private func buildJournal(at path: String) throws -> Double {
    let clock = ContinuousClock()
    return try clock.measure {
      var configuration = Journal.Configuration(durability: .normal)
      configuration.snapshotPolicy = .init(deltaCount: deltas + 1, patchBytes: 1 << 40)
      configuration.catchUpWindow = UInt64(deltas)
      let journal = try Journal(path: path, configuration: configuration)
      var encoder = StateEncoder()
      var state = SyncBenchmarkState(count: 100)
      let document = try encoder.encode(state).canonicalBytes()
      // With the state type's schema, as a leader writes it: a leader starting on the journal
      // then replays every delta each time, rather than recording the schema with a snapshot
      // at its first start, which would leave the later starts nothing to replay.
      try journal.writeSnapshot(
        sequence: 0, document: document, ledger: ClientLedger(),
        schema: SchemaDescription(of: SyncBenchmarkState.self).json.canonicalBytes())
      var differ = StateDiffer()
      var sequence: UInt64 = 0
      var batch: [Delta] = []
      for index in 0..<deltas {
        let old = state
        syncBenchmarkReducer(&state, Bump(index: index))
        sequence += 1
        batch.append(
          Delta(
            sequence: sequence, origin: .leader, tag: "bench.bump",
            patch: try differ.patch(from: old, to: state).canonicalBytes()))
        if batch.count == 10_000 {
          try journal.append(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      try journal.append(batch)
      journal.close()
    }.seconds
  }

  private func scratchPath(_ name: String) throws -> String {
    let folder = directory + "/tandem-bench-journal-\(FollowerConfiguration.randomClientID())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/\(name).journal"
  }

  private func removeJournal(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }
}
