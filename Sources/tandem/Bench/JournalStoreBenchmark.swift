import CommandLineKit
import TandemJournal
import TandemProtocol
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tandem bench journal-store`: the journal alone, without a leader. Appends small one-action
/// deltas in batches of 1, 10, 100 and 1,000 per transaction under `full` and `normal`
/// durability (actions/s), then the same actions as deltas of 10 and 100 actions each (one
/// patch per delta, as a leader publishes a batch), then builds a journal of one million
/// one-action deltas and times its recovery (open + `recover()`, which reads and checks every
/// delta after the snapshot).
let journalStoreBenchmark = Command(
  name: "journal-store",
  summary: "Journal appends by batch size and durability; recovery of 1,000,000 deltas",
  usage: "[--runs N] [--only appends|recovery] [--recovery-deltas N] [--dir PATH] [--keep]\n"
    + "       [--db postgres://...]\n\n"
    + "  --runs N             timed runs per figure, after one warm-up (default 5)\n"
    + "  --only PART          run only the appends or only the recovery part\n"
    + "  --recovery-deltas N  deltas in the journal recovered (default 1000000)\n"
    + "  --dir PATH           where to put the journals (default: a new directory in /tmp)\n"
    + "  --keep               keep the recovery journal (to try `tandem journal` on it)\n"
    + "  --db URL             instead, appends to a PostgreSQL journal in that (empty, scratch)\n"
    + "                       database, fenced by its lease, by batch size",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["keep"])
    let runs = try arguments.integer("runs", default: 5, in: 1...100)
    let recoveryDeltas = try arguments.integer(
      "recovery-deltas", default: 1_000_000, in: 1...Int.max)
    let parent = try arguments.directory("dir", default: "/tmp")
    let only = arguments.option("only")
    let database = arguments.option("db")
    let keep = arguments.flag("keep")
    guard only == nil || only == "appends" || only == "recovery" else {
      throw UsageError("--only takes appends or recovery")
    }
    try arguments.finish()
    let directory = try BenchmarkDirectory(parent: parent)
    defer {
      if keep {
        print("kept: \(directory.path)/recovery.journal")
      } else {
        directory.remove()
      }
    }
    if let database {
      try benchmarkPostgresAppends(connection: database, runs: runs)
      return
    }
    if only != "recovery" {
      try benchmarkAppends(in: directory, runs: runs)
    }
    if only != "appends" {
      try benchmarkRecovery(in: directory, deltas: UInt64(recoveryDeltas), runs: runs)
    }
  }
)

/// A workload delta of the `count` actions from sequence `first` on: counter increments from
/// three clients, with one patch of about 50 bytes.
private func workloadDelta(_ first: UInt64, actions count: Int) -> Delta {
  let last = first + UInt64(count) - 1
  let actions = (first...last).map { sequence in
    AppliedAction(
      origin: Origin(client: "client-\(sequence % 3 + 1)", number: sequence / 3 + 1),
      tag: "counter/increment")
  }
  let patch = #"[{"op":"replace","path":"/count","value":\#(last)}]"#
  return Delta(sequence: last, actions: actions, patch: Array(patch.utf8))
}

/// Appends `count` actions after `journal.lastSequence` in commits of `batch` actions, as
/// deltas of `grouped` actions each, every commit with the ledger entries of the clients it
/// touched, as a leader's group commit does.
private func appendWorkload(
  _ journal: Journal, count: Int, batch: Int, grouped: Int = 1
) throws {
  try appendWorkload(after: journal.lastSequence, count: count, batch: batch, grouped: grouped) {
    try journal.append($0, ledger: $1)
  }
}

/// ``appendWorkload(_:count:batch:grouped:)`` for any journal: `append` stores one commit.
func appendWorkload(
  after last: UInt64, count: Int, batch: Int, grouped: Int = 1,
  append: ([Delta], [String: ClientLedger.Entry]) throws -> Void
) throws {
  var next = last + 1
  var remaining = count
  var deltas: [Delta] = []
  deltas.reserveCapacity(batch)
  while remaining > 0 {
    var size = min(batch, remaining)
    remaining -= size
    deltas.removeAll(keepingCapacity: true)
    var ledger = ClientLedger()
    while size > 0 {
      let delta = workloadDelta(next, actions: min(grouped, size))
      for (sequence, action) in delta.sequencedActions {
        ledger.recordApplied(
          client: action.origin.client, number: action.origin.number, sequence: sequence)
      }
      deltas.append(delta)
      size -= delta.actions.count
      next = delta.sequence + 1
    }
    try append(deltas, ledger.entries)
  }
}

private func benchmarkAppends(in directory: BenchmarkDirectory, runs: Int) throws {
  var table = BenchmarkTable(
    title: "journal-store: appends (median of \(runs) runs)",
    columns: [
      "durability", "actions/commit", "actions/delta", "actions/run", "actions/s", "commits/s",
      "min actions/s", "CPU us/action",
    ])
  let shapes = [(1, 1), (10, 1), (100, 1), (1_000, 1), (10, 10), (100, 100), (1_000, 100)]
  for durability in [Durability.full, .normal] {
    for (batch, grouped) in shapes {
      let path = directory.path + "/append-\(durability)-\(batch)-\(grouped).journal"
      let journal = try Journal(
        path: path,
        configuration: .init(
          durability: durability, snapshotPolicy: .init(deltaCount: .max, patchBytes: .max)))
      try journal.writeSnapshot(
        sequence: 0, document: Array("{}".utf8), ledger: ClientLedger())
      let count = batch == 1 ? 2_000 : batch == 10 ? 10_000 : 50_000
      let clock = BenchmarkClock(runs: runs)
      let cpuStart = processCPUSeconds()
      let rates = try clock.rate(operations: count) {
        try appendWorkload(journal, count: count, batch: batch, grouped: grouped)
      }
      let cpuPerAction =
        (processCPUSeconds() - cpuStart) / Double((runs + clock.warmups) * count) * 1e6
      table.add([
        "\(durability)", "\(batch)", "\(grouped)", BenchmarkTable.format(Double(count)),
        BenchmarkTable.format(rates.median), BenchmarkTable.format(rates.median / Double(batch)),
        BenchmarkTable.format(rates.values.min() ?? 0),
        BenchmarkTable.format(cpuPerAction, decimals: 2),
      ])
      journal.close()
      directory.removeJournal(path)
    }
  }
  table.print()
}

private func benchmarkRecovery(
  in directory: BenchmarkDirectory, deltas: UInt64, runs: Int
)
  throws
{
  let path = directory.path + "/recovery.journal"
  let clock = ContinuousClock()
  let configuration = Journal.Configuration(
    durability: .normal, snapshotPolicy: .init(deltaCount: .max, patchBytes: .max))
  let build = try clock.measure {
    let journal = try Journal(path: path, configuration: configuration)
    try journal.writeSnapshot(
      sequence: 0, document: Array("{}".utf8), ledger: ClientLedger())
    try appendWorkload(journal, count: Int(deltas), batch: 10_000)
    journal.close()
  }
  var recovered = 0
  var fileBytes = 0
  var open: [Double] = []
  var recover: [Double] = []
  var total: [Double] = []
  var recoverCPU: [Double] = []
  // One untimed warm-up, then `runs` timed runs: open the file, then recover().
  for run in 0...runs {
    let opened = clock.now
    let journal = try Journal(path: path, configuration: configuration)
    let started = clock.now
    let cpuStart = processCPUSeconds()
    let recovery = try journal.recover()
    let cpu = processCPUSeconds() - cpuStart
    let finished = clock.now
    if run > 0 {
      open.append((started - opened).seconds)
      recover.append((finished - started).seconds)
      total.append((finished - opened).seconds)
      recoverCPU.append(cpu)
    }
    recovered = recovery.deltas.count
    fileBytes = try journal.stats().fileBytes
    journal.close()
  }
  let verify = try clock.measure {
    let result = try Journal(readingAt: path).verify()
    precondition(result.isSound, "the benchmark journal should verify: \(result.problems)")
  }
  let seconds = { (values: [Double]) in BenchmarkTable.format(Samples(values).median, decimals: 2) }
  var table = BenchmarkTable(
    title: "journal-store: recovery of \(BenchmarkTable.format(Double(deltas))) deltas "
      + "(median of \(runs) runs)",
    columns: ["measure", "value"])
  table.add([
    "build (normal, batches of 10,000), s", BenchmarkTable.format(build.seconds, decimals: 2),
  ])
  table.add([
    "journal file, MiB", BenchmarkTable.format(Double(fileBytes) / 1_048_576, decimals: 1),
  ])
  table.add(["deltas recovered", BenchmarkTable.format(Double(recovered))])
  table.add(["open, s", seconds(open)])
  table.add(["recover(), s", seconds(recover)])
  table.add(["recover(), CPU s", seconds(recoverCPU)])
  table.add(["open + recover(), s", seconds(total)])
  table.add([
    "open + recover(), s (slowest run)", BenchmarkTable.format(total.max() ?? 0, decimals: 2),
  ])
  table.add([
    "recovered deltas/s", BenchmarkTable.format(Double(recovered) / Samples(total).median),
  ])
  table.add([
    "verify (integrity_check + gaps), s", BenchmarkTable.format(verify.seconds, decimals: 2),
  ])
  table.print()
}

/// The CPU time this process has used, in seconds (`CLOCK_PROCESS_CPUTIME_ID`): beside wall
/// time, it shows the journal's own cost on a machine whose cores other work shares.
private func processCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// A temporary directory for the benchmark's journals, removed with its files at the end.
private struct BenchmarkDirectory {
  let path: String

  init(parent: String) throws {
    var template = Array("\(parent)/tandem-journal-bench-XXXXXX".utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw BenchmarkDirectoryError(parent: parent, errno: errno)
    }
    path = String(cString: created)
  }

  /// Deletes a journal and its side files.
  func removeJournal(_ journal: String) {
    for suffix in ["", "-wal", "-shm", "-lock"] { unlink(journal + suffix) }
  }

  /// Deletes every journal left and the directory.
  func remove() {
    for name in ["recovery.journal"] { removeJournal(path + "/" + name) }
    rmdir(path)
  }
}

/// The benchmark could not create its directory.
private struct BenchmarkDirectoryError: Error, CustomStringConvertible {
  var parent: String
  var errno: Int32
  var description: String {
    "cannot create a directory in \(parent): \(String(cString: strerror(errno)))"
  }
}
