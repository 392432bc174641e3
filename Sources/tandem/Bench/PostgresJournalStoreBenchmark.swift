import TandemJournal
import TandemProtocol
import TandemSync

/// `tandem bench journal-store --db URL`: appends of one-action deltas to a PostgreSQL journal
/// fenced by its lease, in batches of 1, 10, 100 and 1,000 actions per transaction (group
/// commit), and grouped deltas, in actions/s. The database should be a scratch one: the
/// benchmark takes its lease and leaves its history there.
func benchmarkPostgresAppends(connection: String, runs: Int) throws {
  let lease = try PostgresLease(connection: connection)
  let holder = "bench-\(UInt64.random(in: 0...UInt64.max))"
  guard
    let record = try lease.acquire(
      holder: holder, control: "-", updates: "-", length: .seconds(3600))
  else {
    throw JournalError.fenced(holder: holder, fencingEpoch: 0, current: try lease.current())
  }
  defer { try? lease.release(holder: holder, fencingEpoch: record.fencingEpoch) }
  let journal = try PostgresJournal(
    connection: connection,
    configuration: .init(snapshotPolicy: .init(deltaCount: .max, patchBytes: .max)),
    fencing: .init(holder: holder, fencingEpoch: record.fencingEpoch))
  if try journal.latestSnapshot() == nil {
    try journal.writeSnapshot(
      sequence: try journal.lastSequence, document: Array("{}".utf8), ledger: ClientLedger())
  }
  print("PostgreSQL journal \(journal.location), fencing epoch \(record.fencingEpoch)")
  var table = BenchmarkTable(
    title: "journal-store: PostgreSQL appends (median of \(runs) runs)",
    columns: ["actions/commit", "actions/delta", "actions/run", "actions/s", "commits/s"])
  for (batch, grouped) in [(1, 1), (10, 1), (100, 1), (1_000, 1), (100, 100), (1_000, 100)] {
    let count = batch == 1 ? 1_000 : batch == 10 ? 5_000 : 20_000
    let clock = BenchmarkClock(runs: runs)
    let rates = try clock.rate(operations: count) {
      try appendWorkload(
        after: try journal.lastSequence, count: count, batch: batch, grouped: grouped
      ) { try journal.append($0, ledger: $1) }
    }
    table.add([
      "\(batch)", "\(grouped)", BenchmarkTable.format(Double(count)),
      BenchmarkTable.format(rates.median), BenchmarkTable.format(rates.median / Double(batch)),
    ])
  }
  table.print()
}
