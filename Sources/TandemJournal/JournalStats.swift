import TandemProtocol

/// A journal's figures, for `tandem journal inspect` and the leader's statistics: the same for
/// an SQLite file and a PostgreSQL journal, but for where the records are kept (``storage``).
public struct JournalStats: Sendable, Equatable {
  /// The history's epoch.
  public var epoch: Epoch
  /// The format version of the file (``Journal``), or of the tables (``PostgresJournal``, whose
  /// versions are numbered apart).
  public var formatVersion: Int64
  /// The durability this journal was opened with; nil when opened for reading, and for a
  /// PostgreSQL journal (whose commits are durable when they return).
  public var durability: Durability?
  /// The oldest sequence kept, the first of a delta (nil when no delta is kept).
  public var oldestSequence: UInt64?
  /// The newest delta or snapshot sequence (0 for a new journal).
  public var lastSequence: UInt64
  /// How many sequences (actions) the stored deltas span: one `deltas` row each.
  public var deltaCount: Int
  /// How many deltas are stored, as they were appended (one patch each); fewer than
  /// ``deltaCount`` when some deltas apply several actions.
  public var patchCount: Int
  /// The patch bytes of the stored deltas.
  public var deltaBytes: Int
  /// The latest snapshot's sequence (nil when there is none).
  public var snapshotSequence: UInt64?
  /// The latest snapshot's state hash.
  public var snapshotHash: UInt64?
  /// The latest snapshot's document size in bytes.
  public var snapshotBytes: Int?
  /// How many snapshots are stored (1 after a compaction).
  public var snapshotCount: Int
  /// Sequences (actions) appended since the latest snapshot.
  public var deltasSinceSnapshot: Int
  /// Patch bytes appended since the latest snapshot.
  public var bytesSinceSnapshot: Int
  /// How many clients the current ledger holds.
  public var clientCount: Int
  /// The ledger's ``ClientLedger/forgottenThrough``: the latest sequence at which a client it
  /// forgot was active (0 when it never forgot one).
  public var forgottenThrough: UInt64
  /// Where the records are kept, and how much room they take.
  public var storage: Storage

  /// Where a journal's records are kept.
  public enum Storage: Sendable, Equatable {
    /// An SQLite file and its write-ahead log.
    case file(File)
    /// Tables in a PostgreSQL database, which leaders share under a lease.
    case database(Database)
  }

  /// The figures of a journal file.
  public struct File: Sendable, Equatable {
    /// The database file's size in bytes.
    public var bytes: Int
    /// The write-ahead log's size in bytes (`<path>-wal`; 0 after a truncating checkpoint).
    public var walBytes: Int
    /// The database page size in bytes.
    public var pageSize: Int
    /// The pages in the database file.
    public var pageCount: Int
    /// The unused pages in the file (returned to the file system by `reclaimSpace()`).
    public var freePages: Int
  }

  /// The figures of a PostgreSQL journal's tables.
  public struct Database: Sendable, Equatable {
    /// The bytes the journal's tables take, indexes and TOAST included
    /// (`pg_total_relation_size`).
    public var tableBytes: Int
    /// The leadership lease as the read saw it; nil when no leader ever took it.
    public var lease: LeaseRecord?
  }

  /// The file figures; nil for a PostgreSQL journal.
  public var file: File? {
    guard case .file(let file) = storage else { return nil }
    return file
  }

  /// The database file's size in bytes (0 for a PostgreSQL journal).
  public var fileBytes: Int { file?.bytes ?? 0 }
  /// The write-ahead log's size in bytes (0 for a PostgreSQL journal).
  public var walBytes: Int { file?.walBytes ?? 0 }
  /// The database page size in bytes (0 for a PostgreSQL journal).
  public var pageSize: Int { file?.pageSize ?? 0 }
  /// The pages in the database file (0 for a PostgreSQL journal).
  public var pageCount: Int { file?.pageCount ?? 0 }
  /// The unused pages in the file (0 for a PostgreSQL journal).
  public var freePages: Int { file?.freePages ?? 0 }
}

extension Journal {
  /// The journal's figures now.
  public func stats() throws(JournalError) -> JournalStats {
    try withSession { (session) throws(JournalError) -> JournalStats in
      try session.sqlite { () throws(SQLiteError) -> JournalStats in try session.stats() }
    }
  }
}

extension JournalSession {
  /// The journal's figures, from the session's counters and the file.
  package func stats() throws(SQLiteError) -> JournalStats {
    let file = JournalStats.File(
      bytes: fileSize(path), walBytes: fileSize(path + "-wal"),
      pageSize: Int(try connection.integer("PRAGMA page_size") ?? 0),
      pageCount: Int(try connection.integer("PRAGMA page_count") ?? 0),
      freePages: Int(try connection.integer("PRAGMA freelist_count") ?? 0))
    var stats = JournalStats(
      epoch: epoch, formatVersion: try connection.integer("PRAGMA user_version") ?? 0,
      durability: durability, oldestSequence: nil, lastSequence: lastSequence, deltaCount: 0,
      patchCount: 0, deltaBytes: 0, snapshotSequence: snapshotSequence, snapshotHash: nil,
      snapshotBytes: nil,
      snapshotCount: Int(try connection.integer("SELECT count(*) FROM snapshots") ?? 0),
      deltasSinceSnapshot: deltasSinceSnapshot, bytesSinceSnapshot: try countBytesSinceSnapshot(),
      clientCount: Int(try connection.integer("SELECT count(*) FROM ledger") ?? 0),
      forgottenThrough: try storedForgottenThrough(), storage: .file(file))
    stats.oldestSequence = try connection.integer("SELECT min(sequence) FROM deltas")
      .map { UInt64(bitPattern: $0) }
    try connection.statement(
      "SELECT count(*), coalesce(sum(length(patch)), 0), "
        + "coalesce(sum(length(patch) > 0), 0) FROM deltas"
    ).run { (row: SQLiteStatement) throws(SQLiteError) in
      _ = try row.step()
      stats.deltaCount = Int(row.int64(at: 0))
      stats.deltaBytes = Int(row.int64(at: 1))
      stats.patchCount = Int(row.int64(at: 2))
    }
    try connection.statement(
      "SELECT hash, length(document) FROM snapshots ORDER BY sequence DESC LIMIT 1"
    ).run { (row: SQLiteStatement) throws(SQLiteError) in
      guard try row.step() else { return }
      stats.snapshotHash = row.uint64(at: 0)
      stats.snapshotBytes = Int(row.int64(at: 1))
    }
    return stats
  }
}
