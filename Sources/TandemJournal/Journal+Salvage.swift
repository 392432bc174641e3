import StatePatch
import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Journal {
  /// What ``salvage(journalAt:to:)`` kept of a damaged journal, and what it could not.
  public struct Salvage: Sendable, Equatable {
    /// The new journal's path.
    public var path: String
    /// The new journal's epoch, minted for it: followers resync from it.
    public var epoch: Epoch
    /// The sequence of the snapshot the new journal starts from.
    public var base: UInt64
    /// The last sequence kept: every delta after ``base`` up to it was read whole, gapless and
    /// matching the hash chain.
    public var kept: UInt64
    /// The last sequence the damaged journal shows, or its high-water mark shows committed,
    /// whichever is later.
    public var last: UInt64
    /// Why the history stops at ``kept``: the first damage found, or the high-water mark it
    /// falls short of; nil when nothing was lost.
    public var damage: String?

    /// The deltas kept after the snapshot.
    public var keptDeltas: UInt64 { kept - base }
    /// The sequences lost: after ``kept`` up to ``last``.
    public var lost: UInt64 { last > kept ? last - kept : 0 }
  }

  /// Copies what the damaged journal at `path` holds up to its first damage into a new journal
  /// at `destination`, with a new epoch. The damaged journal is only read, never changed: it is
  /// copied (with its write-ahead log) beside `destination`, and the copy, padded to whole pages
  /// when the file was cut, is what SQLite opens; the copy is removed afterwards. Its
  /// high-water mark, when there is one, says how much was committed.
  ///
  /// The copy starts from the newest snapshot that reads whole and matches its hash, with its
  /// ledger, and keeps the deltas after it in order until the first that cannot be read, does not
  /// follow the one before (a gap), or does not match the hash chain, or until a delta of
  /// several actions that the history ends inside: the damage `tandem journal verify` names.
  /// The ledger is the snapshot's, with the kept deltas' actions recorded as applied (the
  /// rejections recorded after the snapshot are not in the deltas, and are not kept). A leader
  /// starting on the new journal serves its state at ``Salvage/kept`` in the new epoch, and
  /// followers resync; the actions after it are lost.
  ///
  /// - Throws: ``JournalError/system(path:call:errno:)`` with `EEXIST` when a file is at
  ///   `destination` (salvage never overwrites); ``JournalError/corrupt(path:detail:)`` when
  ///   no snapshot reads whole (nothing to start from); what writing the new journal throws
  ///   (the partial new file is removed).
  public static func salvage(
    journalAt path: String, to destination: String
  ) throws(JournalError) -> Salvage {
    guard access(path, F_OK) == 0 else { throw .notFound(path: path) }
    for suffix in ["", "-wal", "-mark"] where access(destination + suffix, F_OK) == 0 {
      throw .system(
        path: destination + suffix, call: "access (salvage never overwrites a file)",
        errno: EEXIST)
    }
    let copy = try SalvageCopy(of: path, at: destination + "-salvage-source")
    defer { copy.remove() }
    let found = try { () throws(JournalError) -> SalvagedHistory in
      let session = try JournalSession.openForReading(path: copy.path, damaged: true)
      defer { session.closeCleanly() }
      return try session.salvageableHistory(markOf: path)
    }()
    do throws(JournalError) {
      let target = try Journal(path: destination)
      defer { target.close() }
      try target.withSession { (session) throws(JournalError) in
        try session.startFromSnapshot(found.snapshot)
      }
      var ledger = found.snapshot.ledger
      var changed: Set<String> = []
      var batch: [Delta] = []
      func commit() throws(JournalError) {
        let entries = Dictionary(
          uniqueKeysWithValues: changed.compactMap { client in
            ledger.entries[client].map { (client, $0) }
          })
        try target.append(batch, ledger: entries)
        batch.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
      }
      for delta in found.deltas {
        for (sequence, action) in delta.sequencedActions where !action.origin.isLeader {
          ledger.recordApplied(
            client: action.origin.client, number: action.origin.number, sequence: sequence,
            key: action.origin.key)
          changed.insert(action.origin.client)
        }
        batch.append(delta)
        if batch.count >= 1000 { try commit() }
      }
      if !batch.isEmpty { try commit() }
      let kept = found.deltas.last?.sequence ?? found.snapshot.sequence
      var damage = found.damage
      if damage == nil, found.last > kept {
        damage = "the high-water mark shows sequence \(found.last) committed"
      }
      return Salvage(
        path: destination, epoch: target.epoch, base: found.snapshot.sequence, kept: kept,
        last: max(found.last, kept), damage: damage)
    } catch {
      for suffix in ["", "-wal", "-shm", "-lock"] { _ = unlink(destination + suffix) }
      _ = unlink(HighWaterMarkFile.path(forJournal: destination))
      throw error
    }
  }
}

/// What a damaged journal holds that can be kept: a snapshot, the deltas after it up to the
/// first damage, what that damage is, and the last sequence the journal or its mark shows.
struct SalvagedHistory: Sendable {
  var snapshot: JournalSnapshot
  var deltas: [Delta]
  var damage: String?
  var last: UInt64
}

extension JournalSession {
  /// Reads what ``Journal/salvage(journalAt:to:)`` keeps, in one read transaction, with the
  /// high-water mark of the journal at `original` (this session's file is its copy).
  func salvageableHistory(markOf original: String) throws(JournalError) -> SalvagedHistory {
    let mark = try? HighWaterMarkFile.read(journalPath: original)
    var last = lastSequence
    if case .mark(let mark)? = mark, mark.epoch == epoch { last = max(last, mark.committed) }
    let path = path
    return try sqlite { () throws(SQLiteError) -> SalvagedHistory in
      // One read transaction, rolled back: its commit can fail on a damaged file after every
      // row it needs was read.
      try connection.execute("BEGIN DEFERRED")
      defer { _ = try? connection.execute("ROLLBACK") }
      return try { () throws(SQLiteError) -> SalvagedHistory in
        var damage: String?
        var snapshot: JournalSnapshot?
        for sequence in try snapshotSequences() {
          do throws(SQLiteError) {
            snapshot = try self.snapshot(at: sequence)
            break
          } catch {
            damage = damage ?? "the snapshot at \(sequence): \(error)"
          }
        }
        guard let snapshot else {
          throw .corruptJournal(
            "no snapshot reads whole\(damage.map { " (\($0))" } ?? ""): nothing to start from")
        }
        var deltas: [Delta] = []
        var previous = snapshot.sequence
        // Rows whose link to the snapshot is unknown cannot be shown intact: none is kept.
        guard let chain = try? chainBefore(snapshot.sequence + 1) else {
          if lastSequence > snapshot.sequence {
            damage =
              damage ?? "the hash chain's value before sequence \(snapshot.sequence + 1) is unknown"
          }
          return SalvagedHistory(snapshot: snapshot, deltas: [], damage: damage, last: last)
        }
        // The replay reports a row off the chain only at its end: the rows from the first
        // one off it are found first, and no delta reaching them is kept.
        let broken = try? firstRowOffTheChain(after: snapshot.sequence, chain: chain)
        do throws(JournalError) {
          try forEachDelta(from: snapshot.sequence + 1, chain: chain) {
            (delta) throws(JournalError) -> Bool in
            guard delta.firstSequence == previous + 1 else {
              throw .gap(path: path, after: previous, next: delta.firstSequence)
            }
            if let broken = broken ?? nil, delta.sequence >= broken {
              throw .corrupt(path: path, detail: DeltaChain.mismatch(at: broken))
            }
            previous = delta.sequence
            deltas.append(delta)
            return true
          }
          if previous < lastSequence, damage == nil {
            damage = "the deltas end at sequence \(previous), before the last, \(lastSequence)"
          }
        } catch {
          damage = "\(error)"
        }
        return SalvagedHistory(snapshot: snapshot, deltas: deltas, damage: damage, last: last)
      }()
    }
  }

  /// The first row after `sequence` that does not match the hash chain, each row checked
  /// against the `chain` stored in the row before it (the first against `chain`); nil when
  /// every row read matches, up to the first gap or unreadable row.
  private func firstRowOffTheChain(
    after sequence: UInt64, chain: UInt64
  ) throws(SQLiteError) -> UInt64? {
    var previous = chain
    var expected = sequence + 1
    return try connection.statement(JournalSchema.selectDeltasFrom).run {
      (row: SQLiteStatement) throws(SQLiteError) -> UInt64? in
      try row.bind(expected, at: 1)
      while try row.step() {
        let rowSequence = try row.sequence(at: 0, in: "deltas")
        guard rowSequence == expected else { return nil }
        let link = DeltaChain.link(
          previous: previous, sequence: rowSequence,
          origin: Origin(
            client: row.text(at: 1), number: row.uint64(at: 2), generation: row.uint64(at: 5),
            key: row.text(at: 7)),
          tag: row.text(at: 3), patch: row.blob(at: 4))
        previous = row.uint64(at: 6)
        guard link == previous else { return rowSequence }
        expected += 1
      }
      return nil
    }
  }

  /// The sequences of the stored snapshots, newest first (none when the table does not read).
  private func snapshotSequences() throws(SQLiteError) -> [UInt64] {
    var sequences: [UInt64] = []
    try connection.statement("SELECT sequence FROM snapshots ORDER BY sequence DESC").run {
      (row: SQLiteStatement) throws(SQLiteError) in
      while try row.step() { sequences.append(try row.sequence(at: 0, in: "snapshots")) }
    }
    return sequences
  }

  /// The snapshot at `sequence`, with its ledger; an `SQLITE_CORRUPT` error when its document
  /// does not match its stored hash.
  private func snapshot(at sequence: UInt64) throws(SQLiteError) -> JournalSnapshot {
    let statement = try connection.statement(
      "SELECT hash, document, schema FROM snapshots WHERE sequence = ?1")
    let found = try statement.run {
      (row: SQLiteStatement) throws(SQLiteError) -> (UInt64, [UInt8], [UInt8])? in
      try row.bind(sequence, at: 1)
      guard try row.step() else { return nil }
      return (row.uint64(at: 0), row.blob(at: 1), row.blob(at: 2))
    }
    guard let (hash, document, schema) = found, JSONValue.fnv1a(document) == hash else {
      throw .corruptJournal("the snapshot at \(sequence) does not match its stored hash")
    }
    return JournalSnapshot(
      sequence: sequence, hash: hash, document: document,
      ledger: try ledgerEntries(snapshot: sequence), schema: schema)
  }

  /// Starts a new journal's history at `snapshot` (its first write): the snapshot and its
  /// ledger stored, the journal's last sequence the snapshot's.
  func startFromSnapshot(_ snapshot: JournalSnapshot) throws(JournalError) {
    try prepareToWrite()
    precondition(lastSequence == 0 && snapshotSequence == nil, "salvage writes a new journal")
    try sqlite { () throws(SQLiteError) in
      try storeSnapshot(
        sequence: snapshot.sequence, hash: snapshot.hash, document: snapshot.document,
        schema: snapshot.schema, ledger: snapshot.ledger)
    }
    lastSequence = snapshot.sequence
    snapshotSequence = snapshot.sequence
    try writeMark()
  }
}
