import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new journal file written whole, in one SQLite transaction, from another journal's
/// records: what ``PostgresJournal/backup(to:)`` makes.
///
/// The file is claimed first (created empty, never over an existing file), then written in this
/// build's format with the source's epoch, its latest snapshot, its `deltas` rows as they are
/// (their chain values included, from the source's chain base) and its current ledger. It is
/// recorded as a journal that keeps a high-water mark, and has none: a leader starting on it
/// cannot show it complete and mints a new epoch, as on any backup (see the High-water mark
/// article). Until ``commit()`` the file holds nothing (a crash leaves it empty once SQLite
/// rolls the transaction back); ``discard()`` removes it.
final class JournalFileWriter {
  /// The new file's path.
  let path: String
  private let session: JournalSession

  /// Claims `path` and begins a journal of `epoch` in it.
  ///
  /// - Throws: ``JournalError/system(path:call:errno:)`` with `EEXIST` when a file is at `path`,
  ///   or beside it where SQLite or the high-water mark would read one (`-wal`, `-journal`,
  ///   `-mark`); what creating the file throws (the file is removed then).
  init(creating path: String, epoch: Epoch) throws(JournalError) {
    try Self.checkFree(path)
    let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard created >= 0 else {
      throw .system(path: path, call: "open (a backup never overwrites a file)", errno: errno)
    }
    close(created)
    self.path = path
    do throws(SQLiteError) {
      let connection = try SQLiteConnection(path: path, access: .readWrite)
      try connection.execute(JournalSchema.prepareEmpty)
      try connection.execute("BEGIN IMMEDIATE")
      try connection.execute(JournalSchema.create(epoch: epoch))
      session = try JournalSession(
        path: path, connection: connection, lock: nil, durability: nil, epoch: epoch,
        epochContinuity: .continued)
    } catch {
      Self.remove(path)
      throw JournalError(path: path, error)
    }
  }

  /// Throws ``JournalError/system(path:call:errno:)`` with `EEXIST` when a file is at `path` or
  /// at one of the side files that would be read with it.
  static func checkFree(_ path: String) throws(JournalError) {
    for file in [path, path + "-wal", path + "-journal", HighWaterMarkFile.path(forJournal: path)]
    where access(file, F_OK) == 0 {
      throw .system(path: file, call: "access (a backup never overwrites a file)", errno: EEXIST)
    }
  }

  /// Stores the snapshot (with its ledger), the current ledger with its forgotten-through
  /// sequence, the chain's base, and the record that the journal keeps a high-water mark.
  func start(
    snapshot: JournalSnapshot?, ledger: ClientLedger, chainBase: UInt64
  ) throws(JournalError) {
    let session = session
    try session.sqlite { () throws(SQLiteError) in
      if let snapshot {
        try session.storeSnapshotRows(
          sequence: snapshot.sequence, hash: snapshot.hash, document: snapshot.document,
          schema: snapshot.schema, ledger: snapshot.ledger)
      }
      try session.replaceLedgerRows(with: ledger)
      try session.setMeta(
        JournalSchema.forgottenThroughKey, Int64(bitPattern: ledger.forgottenThrough))
      try session.setMeta(JournalSchema.chainBaseKey, Int64(bitPattern: chainBase))
      try session.setMeta(JournalSchema.keepsMarkKey, 1)
    }
  }

  /// Stores `rows` as they are.
  func append(_ rows: [DeltaRow]) throws(JournalError) {
    let session = session
    try session.sqlite { () throws(SQLiteError) in
      let insert = try session.connection.statement(JournalSchema.insertDelta)
      for delta in rows {
        try insert.run { (row: SQLiteStatement) throws(SQLiteError) in
          try row.bind(delta.sequence, at: 1)
          try row.bind(delta.action.origin.client, at: 2)
          try row.bind(delta.action.origin.number, at: 3)
          try row.bind(delta.action.tag, at: 4)
          try row.bind(delta.patch, at: 5)
          try row.bind(delta.action.origin.generation, at: 6)
          try row.bind(delta.chain, at: 7)
          try row.bind(delta.action.origin.key, at: 8)
          _ = try row.step()
        }
      }
    }
  }

  /// Commits the file, synced, and reads it back as a journal.
  func commit() throws(JournalError) -> Journal.Backup {
    let session = session
    try session.sqlite { () throws(SQLiteError) in try session.connection.execute("COMMIT") }
    let copy = try JournalSession.openForReading(path: path)
    return Journal.Backup(
      path: path, epoch: copy.epoch, sequence: copy.lastSequence, bytes: fileSize(path))
  }

  /// Rolls back and removes the file.
  func discard() {
    if session.connection.isInTransaction { _ = try? session.connection.execute("ROLLBACK") }
    Self.remove(path)
  }

  private static func remove(_ path: String) {
    for suffix in ["", "-journal"] { _ = unlink(path + suffix) }
  }
}

extension JournalSession {
  /// Calls `body` with the stored `deltas` rows in order, as they are (unchecked: see
  /// ``DeltaRowCheck``), `size` at a time.
  func forEachRowBatch(
    size: Int = 1000, _ body: ([DeltaRow]) throws(JournalError) -> Void
  ) throws(JournalError) {
    var failure: JournalError?
    try sqlite { () throws(SQLiteError) in
      try connection.statement(JournalSchema.selectDeltasFrom).run {
        (row: SQLiteStatement) throws(SQLiteError) in
        try row.bind(UInt64(0), at: 1)
        var batch: [DeltaRow] = []
        func flush() -> Bool {
          do throws(JournalError) { try body(batch) } catch {
            failure = error
            return false
          }
          batch.removeAll(keepingCapacity: true)
          return true
        }
        while try row.step() {
          batch.append(
            DeltaRow(
              sequence: try row.sequence(at: 0, in: "deltas"),
              action: AppliedAction(
                origin: Origin(
                  client: row.text(at: 1), number: row.uint64(at: 2),
                  generation: row.uint64(at: 5), key: row.text(at: 7)),
                tag: row.text(at: 3)),
              patch: row.blob(at: 4), chain: row.uint64(at: 6)))
          if batch.count >= size, !flush() { return }
        }
        if !batch.isEmpty { _ = flush() }
      }
    }
    if let failure { throw failure }
  }
}
