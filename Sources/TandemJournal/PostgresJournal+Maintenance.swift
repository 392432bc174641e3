import StatePatch
import TandemProtocol

extension PostgresJournal {
  /// Removes what recovery and catch-up no longer need, in one fenced transaction: snapshots
  /// older than the latest, and whole deltas ending more than
  /// ``Journal/Configuration/catchUpWindow`` sequences behind it; the chain's base becomes the
  /// chain value of the last row removed, so the oldest row kept is still checked.
  /// (`checkpointed` is always false: PostgreSQL's own checkpoints and autovacuum reclaim
  /// space.)
  @discardableResult
  public func compact() throws(JournalError) -> Journal.Compaction {
    let window = configuration.catchUpWindow
    return try write { (connection, meta) throws(JournalError) -> Journal.Compaction in
      guard let latest = try snapshotSequence(connection) else {
        return Journal.Compaction(deltasRemoved: 0, snapshotsRemoved: 0, checkpointed: false)
      }
      return try postgres { () throws(PostgresError) -> Journal.Compaction in
        let snapshots = try connection.exec(
          "DELETE FROM tandem_snapshots WHERE sequence < $1", [.int8(Int64(latest))]
        ).affected
        guard latest > window else {
          return Journal.Compaction(
            deltasRemoved: 0, snapshotsRemoved: snapshots, checkpointed: false)
        }
        // The last row at or before the window's edge that closes a delta.
        let edge = try connection.exec(
          """
          SELECT sequence, chain FROM tandem_deltas
          WHERE sequence <= $1 AND length(patch) > 0 ORDER BY sequence DESC LIMIT 1
          """, [.int8(Int64(latest - window))])
        guard let cut = edge.int64(0, 0), let chain = edge.int64(0, 1) else {
          return Journal.Compaction(
            deltasRemoved: 0, snapshotsRemoved: snapshots, checkpointed: false)
        }
        let removed = try connection.exec(
          "DELETE FROM tandem_deltas WHERE sequence <= $1", [.int8(cut)]
        ).affected
        meta.chainBase = UInt64(bitPattern: chain)
        return Journal.Compaction(
          deltasRemoved: removed, snapshotsRemoved: snapshots, checkpointed: false)
      }
    }
  }

  /// Checks the journal in one consistent read: the meta records and format, every snapshot
  /// matching its hash, the deltas gapless from the oldest kept through the last (which the
  /// meta records name), every row matching the hash chain (its per-row checksum), the history
  /// not ending inside a delta, and the ledger not ahead of the history.
  public func verify(
    progress: (String) -> Void = { _ in }
  ) throws(JournalError)
    -> Journal.Verification
  {
    try read { (connection) throws(JournalError) -> Journal.Verification in
      var result = Journal.Verification(problems: [], checks: [])
      func check(_ name: String, _ body: () throws(JournalError) -> [String]) {
        progress("verify: \(name)...")
        result.checks.append(name)
        do throws(JournalError) { result.problems += try body() } catch {
          result.problems.append("\(name): \(error)")
        }
      }
      var meta: PostgresJournalMeta?
      check("meta records and format") { () throws(JournalError) -> [String] in
        let read = try self.meta(connection)
        meta = read
        return read.version == PostgresJournalSchema.version
          ? []
          : ["format version \(read.version), this build reads \(PostgresJournalSchema.version)"]
      }
      guard let meta else { return result }
      check("snapshots match their hashes") { () throws(JournalError) -> [String] in
        let rows = try postgres { () throws(PostgresError) in
          try connection.exec("SELECT sequence, hash, document FROM tandem_snapshots")
        }
        return (0..<rows.count).compactMap { row in
          JSONValue.fnv1a(rows.bytes(row, 2)) == UInt64(bitPattern: rows.int64(row, 1) ?? 0)
            ? nil : "the snapshot at sequence \(rows.int64(row, 0) ?? -1) does not match its hash"
        }
      }
      check("deltas gapless and chained through the last sequence") {
        () throws(JournalError) -> [String] in
        let oldest = try postgres { () throws(PostgresError) in
          try connection.exec("SELECT min(sequence), max(sequence) FROM tandem_deltas")
        }
        guard let first = oldest.int64(0, 0), let last = oldest.int64(0, 1) else {
          let snapshot = try snapshotSequence(connection) ?? 0
          return snapshot == meta.lastSequence
            ? [] : ["no deltas, but the last sequence is \(meta.lastSequence)"]
        }
        var problems: [String] = []
        do throws(JournalError) {
          _ = try rows(connection, from: UInt64(first), meta: meta, maximumBytes: .max)
        } catch {
          problems.append("\(error)")
        }
        if UInt64(last) != meta.lastSequence {
          problems.append(
            "the deltas end at \(last), the last sequence recorded is \(meta.lastSequence)")
        }
        if let snapshot = try snapshotSequence(connection), snapshot + 1 < UInt64(first) {
          problems.append("the deltas start at \(first), after the snapshot at \(snapshot) + 1")
        }
        return problems
      }
      check("ledger not ahead of the history") { () throws(JournalError) -> [String] in
        let ahead = try postgres { () throws(PostgresError) in
          try connection.exec(
            "SELECT client FROM tandem_ledger WHERE last_sequence > $1",
            [.int8(Int64(meta.lastSequence))])
        }
        return (0..<ahead.count).map {
          "client \(ahead.string($0, 0)) is recorded after the last sequence"
        }
      }
      return result
    }
  }
}
