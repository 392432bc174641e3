import StatePatch
import TandemProtocol

/// The open journal behind a ``Journal``: its connection, its lock and what it knows of the
/// history without asking SQLite. Used only under the ``Journal``'s mutex.
package final class JournalSession {
  package let path: String
  package let connection: SQLiteConnection
  /// The leader lock; nil for a read-only session.
  package let lock: JournalLock?
  /// The durability applied; nil for a read-only session.
  package let durability: Durability?
  /// The history's epoch.
  package var epoch: Epoch
  /// How the epoch came to be at this open.
  package var epochContinuity: EpochContinuity
  /// What the leader session writes when it starts; nil once it has started, and for a
  /// read-only session.
  package var pendingStart: PendingStart?
  /// The sequence of the newest delta or snapshot (0 for an empty journal).
  package var lastSequence: UInt64
  /// The sequence of the latest snapshot, if any.
  package var snapshotSequence: UInt64?
  /// Sequences (actions, one row each) stored after the latest snapshot.
  package var deltasSinceSnapshot: Int
  /// Patch bytes stored after the latest snapshot; nil until counted (by ``recover()``, or on
  /// first need), which spares the open a scan of every delta.
  package var bytesSinceSnapshot: Int?
  /// The hash chain's value at the newest row (``DeltaChain``), which the next append links
  /// to; read when the leader session starts.
  package var lastChain: UInt64 = 0
  /// The side file holding the ``HighWaterMark``; nil for a read-only session.
  package var markFile: HighWaterMarkFile?
  /// The machine's boot id (or "unknown"), written into each mark.
  package var boot = "unknown"

  package init(
    path: String, connection: SQLiteConnection, lock: JournalLock?, durability: Durability?,
    epoch: Epoch, epochContinuity: EpochContinuity, countersRequired: Bool = true
  ) throws(SQLiteError) {
    self.path = path
    self.connection = connection
    self.lock = lock
    self.durability = durability
    self.epoch = epoch
    self.epochContinuity = epochContinuity
    lastSequence = 0
    snapshotSequence = nil
    deltasSinceSnapshot = 0
    bytesSinceSnapshot = 0
    // Salvage reads a damaged file whose counters may not read: they stay 0 then.
    do throws(SQLiteError) {
      try reloadCounters()
    } catch  where !countersRequired && error.isCorruption {
      lastSequence = 0
    }
  }

  /// Reads the sequence counters back from the file.
  ///
  /// - Throws: an `SQLITE_CORRUPT` error when a delta or snapshot sequence is out of
  ///   ``StoredSequence/range`` (the least and greatest of each table bound all the others).
  package func reloadCounters() throws(SQLiteError) {
    _ = try sequence("SELECT min(sequence) FROM deltas", in: "deltas")
    let newestDelta = try sequence("SELECT max(sequence) FROM deltas", in: "deltas")
    _ = try sequence("SELECT min(sequence) FROM snapshots", in: "snapshots")
    let newestSnapshot = try sequence("SELECT max(sequence) FROM snapshots", in: "snapshots")
    let oldestAfter = try sequence(
      "SELECT min(sequence) FROM deltas WHERE sequence > ?1", in: "deltas",
      binding: newestSnapshot ?? 0)
    let last = max(newestDelta ?? 0, newestSnapshot ?? 0)
    // A damaged index can answer the two queries inconsistently.
    if let oldestAfter, oldestAfter > last {
      throw .corruptJournal(
        "the deltas table's index is damaged: its newest sequence is \(last), yet it holds "
          + "\(oldestAfter)")
    }
    snapshotSequence = newestSnapshot
    lastSequence = last
    // Gapless deltas (which recovery checks) make the count a subtraction.
    deltasSinceSnapshot = oldestAfter.map { Int(last - $0 + 1) } ?? 0
    bytesSinceSnapshot = nil
  }

  /// The patch bytes stored after the latest snapshot, counted once when not yet known.
  package func countBytesSinceSnapshot() throws(SQLiteError) -> Int {
    if let bytesSinceSnapshot { return bytesSinceSnapshot }
    let bytes =
      try connection.integer(
        "SELECT coalesce(sum(length(patch)), 0) FROM deltas WHERE sequence > ?1",
        binding: snapshotSequence ?? 0) ?? 0
    bytesSinceSnapshot = Int(bytes)
    return Int(bytes)
  }

  // MARK: Meta

  /// The integer stored under `key`, if any.
  package func metaInteger(_ key: String) throws(SQLiteError) -> Int64? {
    try connection.statement(JournalSchema.selectMeta).run {
      (row: SQLiteStatement) throws(SQLiteError) -> Int64? in
      try row.bind(key, at: 1)
      guard try row.step(), !row.isNull(at: 0) else { return nil }
      return row.int64(at: 0)
    }
  }

  /// The text stored under `key`, if any.
  package func metaText(_ key: String) throws(SQLiteError) -> String? {
    try connection.statement(JournalSchema.selectMeta).run {
      (row: SQLiteStatement) throws(SQLiteError) -> String? in
      try row.bind(key, at: 1)
      guard try row.step(), !row.isNull(at: 0) else { return nil }
      return row.text(at: 0)
    }
  }

  /// Stores `value` under `key`.
  package func setMeta(_ key: String, _ value: Int64) throws(SQLiteError) {
    try connection.statement(JournalSchema.upsertMeta).run {
      (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(key, at: 1)
      try row.bind(value, at: 2)
      _ = try row.step()
    }
  }

  /// Stores `value` under `key`.
  package func setMeta(_ key: String, _ value: String) throws(SQLiteError) {
    try connection.statement(JournalSchema.upsertMeta).run {
      (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(key, at: 1)
      try row.bind(value, at: 2)
      _ = try row.step()
    }
  }

  /// Raises the stored ``ClientLedger/forgottenThrough`` to `sequence`, if it is below.
  package func raiseForgottenThrough(to sequence: UInt64) throws(SQLiteError) {
    try connection.statement(JournalSchema.raiseForgottenThrough).run {
      (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(sequence, at: 1)
      _ = try row.step()
    }
  }

  // MARK: Reading rows

  /// The length of the patch stored at `sequence`: 0 for a row of a delta that continues into
  /// the next row (an action before the delta's last), nil when no row of `sequence` is stored.
  package func patchLength(at sequence: UInt64) throws(SQLiteError) -> Int64? {
    try connection.integer(
      "SELECT length(patch) FROM deltas WHERE sequence = ?1", binding: sequence)
  }

  /// Why the snapshot at `sequence` cannot be a base for replay: its row has an empty patch,
  /// so the snapshot falls inside a delta of several actions; nil when it is a delta boundary.
  package func snapshotInsideDelta(_ sequence: UInt64) throws(SQLiteError) -> String? {
    guard try patchLength(at: sequence) == 0 else { return nil }
    return "the latest snapshot, at sequence \(sequence), falls inside a delta (the row of "
      + "sequence \(sequence) has an empty patch)"
  }

  /// Calls `body` with each delta from `sequence` on, in order, until it returns false.
  ///
  /// Rows are grouped back into the deltas appended: a row with an empty patch continues into
  /// the next row's delta, and the first row with a patch closes it. `sequence` must be the
  /// first sequence of a delta (the caller checks; see ``Journal/deltas(from:maximumBytes:)``).
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` when the rows of one delta skip a
  ///   sequence; ``JournalError/corrupt(path:detail:)`` when the last rows have empty patches
  ///   and no row closes their delta (a committed append never leaves that).
  ///
  /// With `chain`, the hash chain's value before `sequence` (``chainBefore(_:)``), each row that
  /// follows the one before it is also checked against the chain, and the first that does not
  /// match is ``JournalError/corrupt(path:detail:)`` naming its sequence (thrown after the
  /// rows are read, unless they are found gapped or cut first).
  package func forEachDelta(
    from sequence: UInt64, chain: UInt64? = nil, _ body: (Delta) throws(JournalError) -> Bool
  ) throws(JournalError) {
    let statement: SQLiteStatement
    do throws(SQLiteError) {
      statement = try connection.statement(JournalSchema.selectDeltasFrom)
    } catch {
      throw JournalError(path: path, error)
    }
    let path = path
    var failure: JournalError?
    do throws(SQLiteError) {
      try statement.run { (row: SQLiteStatement) throws(SQLiteError) in
        try row.bind(sequence, at: 1)
        var recent = RecentStrings()
        // The actions of the delta being gathered, from `pendingFirst` on.
        var pending: [AppliedAction] = []
        var pendingFirst: UInt64 = 0
        var previousRow: UInt64?
        var linked = chain
        var chainFailure: JournalError?
        defer { if failure == nil { failure = chainFailure } }
        while try row.step() {
          let rowSequence = try row.sequence(at: 0, in: "deltas")
          // A damaged index can return rows out of order, or a row below the first asked for.
          if rowSequence < sequence || previousRow.map({ rowSequence <= $0 }) == true {
            failure = .corrupt(
              path: path,
              detail: "the deltas table's order is damaged: sequence \(rowSequence) is read "
                + "after \(previousRow.map(String.init) ?? "none") (from \(sequence) on)")
            return
          }
          // Across a gap the chain is not checked: the gap is the diagnosis.
          let follows = rowSequence == (previousRow.map { $0 + 1 } ?? sequence)
          previousRow = rowSequence
          let action = AppliedAction(
            origin: Origin(
              client: row.text(at: 1, reusing: &recent), number: row.uint64(at: 2),
              generation: row.uint64(at: 5), key: row.text(at: 7, reusing: &recent)),
            tag: row.text(at: 3, reusing: &recent))
          let patch = row.blob(at: 4)
          if let previous = linked {
            let stored = row.uint64(at: 6)
            if follows, chainFailure == nil,
              DeltaChain.link(
                previous: previous, sequence: rowSequence, origin: action.origin,
                tag: action.tag, patch: patch) != stored
            {
              // Thrown at the end, unless the rows' structure is found broken first.
              chainFailure = .corrupt(path: path, detail: DeltaChain.mismatch(at: rowSequence))
            }
            linked = stored
          }
          let expected = pendingFirst &+ UInt64(pending.count)
          if !pending.isEmpty, rowSequence != expected {
            failure = .gap(path: path, after: expected - 1, next: rowSequence)
            return
          }
          if patch.isEmpty {
            if pending.isEmpty { pendingFirst = rowSequence }
            pending.append(action)
            continue
          }
          let delta: Delta
          if pending.isEmpty {
            delta = Delta(sequence: rowSequence, actions: [action], patch: patch)
          } else {
            pending.append(action)
            delta = Delta(sequence: rowSequence, actions: pending, patch: patch)
            pending.removeAll(keepingCapacity: true)
          }
          do throws(JournalError) {
            guard try body(delta) else { return }
          } catch {
            failure = error
            return
          }
        }
        if !pending.isEmpty {
          let last = pendingFirst + UInt64(pending.count) - 1
          failure = .corrupt(
            path: path,
            detail: "the rows of sequences \(pendingFirst)...\(last) have empty patches but no "
              + "later row closes their delta with its patch: the history ends inside a delta")
        }
      }
    } catch {
      throw JournalError(path: path, error)
    }
    if let failure { throw failure }
  }

  /// The ledger entries of `table` (`ledger`, or `snapshot_ledger` for `snapshot`); the
  /// current ledger with its forgotten-through record (a snapshot's ledger has none).
  package func ledgerEntries(snapshot: UInt64? = nil) throws(SQLiteError) -> ClientLedger {
    let sql = snapshot == nil ? JournalSchema.selectLedger : JournalSchema.selectSnapshotLedger
    var entries: [String: ClientLedger.Entry] = [:]
    try connection.statement(sql).run { (row: SQLiteStatement) throws(SQLiteError) in
      if let snapshot { try row.bind(snapshot, at: 1) }
      while try row.step() {
        let (client, entry) = try row.ledgerEntry()
        entries[client] = entry
      }
    }
    guard snapshot == nil else { return ClientLedger(restoring: entries) }
    return ClientLedger(restoring: entries, forgottenThrough: try storedForgottenThrough())
  }

  /// The current ledger's ``ClientLedger/forgottenThrough`` as stored; missing only from a
  /// damaged file, when every client before the last sequence counts as forgotten.
  package func storedForgottenThrough() throws(SQLiteError) -> UInt64 {
    try metaInteger(JournalSchema.forgottenThroughKey).map { UInt64(bitPattern: $0) }
      ?? lastSequence
  }

  /// The latest snapshot, with its ledger.
  ///
  /// - Throws: an `SQLITE_CORRUPT` error when its document does not match its stored hash
  ///   (damaged in a way that still reads, which nothing else would catch).
  package func latestSnapshot() throws(SQLiteError) -> JournalSnapshot? {
    let statement = try connection.statement(
      "SELECT sequence, hash, document, schema FROM snapshots ORDER BY sequence DESC LIMIT 1")
    let found = try statement.run {
      (row: SQLiteStatement) throws(SQLiteError) -> (UInt64, UInt64, [UInt8], [UInt8])? in
      guard try row.step() else { return nil }
      return (
        try row.sequence(at: 0, in: "snapshots"), row.uint64(at: 1), row.blob(at: 2),
        row.blob(at: 3)
      )
    }
    guard let (sequence, hash, document, schema) = found else { return nil }
    guard JSONValue.fnv1a(document) == hash else {
      throw .corruptJournal("the snapshot at \(sequence) does not match its stored hash")
    }
    return JournalSnapshot(
      sequence: sequence, hash: hash, document: document,
      ledger: try ledgerEntries(snapshot: sequence), schema: schema)
  }

  /// Runs `body`, turning SQLite failures into journal errors for this file.
  package func sqlite<R>(_ body: () throws(SQLiteError) -> R) throws(JournalError) -> R {
    do throws(SQLiteError) {
      return try body()
    } catch {
      throw JournalError(path: path, error)
    }
  }
}
