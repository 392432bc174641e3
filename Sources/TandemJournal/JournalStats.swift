import TandemProtocol

/// A journal's figures, for `tandem journal inspect` and the leader's statistics.
public struct JournalStats: Sendable, Equatable {
  /// The history's epoch.
  public var epoch: Epoch
  /// The format version of the file.
  public var formatVersion: Int64
  /// The durability this journal was opened with; nil when opened for reading.
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
  /// Sequences (actions) appended since the latest snapshot, as the snapshot policy counts.
  public var deltasSinceSnapshot: Int
  /// Patch bytes appended since the latest snapshot.
  public var bytesSinceSnapshot: Int
  /// How many clients the current ledger holds.
  public var clientCount: Int
  /// The ledger's ``ClientLedger/forgottenThrough``: the latest sequence at which a client it
  /// forgot was active (0 when it never forgot one).
  public var forgottenThrough: UInt64
  /// The database file's size in bytes.
  public var fileBytes: Int
  /// The write-ahead log's size in bytes (`<path>-wal`; 0 after a truncating checkpoint).
  public var walBytes: Int
  /// The database page size in bytes.
  public var pageSize: Int
  /// The pages in the database file.
  public var pageCount: Int
  /// The unused pages in the file (returned to the file system by `reclaimSpace()`).
  public var freePages: Int
}

extension Journal {
  /// The journal's figures now.
  public func stats() throws(JournalError) -> JournalStats {
    try withSession { (session) throws(JournalError) -> JournalStats in
      try session.sqlite { () throws(SQLiteError) -> JournalStats in
        let connection = session.connection
        var stats = JournalStats(
          epoch: session.epoch, formatVersion: try connection.integer("PRAGMA user_version") ?? 0,
          durability: session.durability, oldestSequence: nil,
          lastSequence: session.lastSequence, deltaCount: 0, patchCount: 0, deltaBytes: 0,
          snapshotSequence: session.snapshotSequence, snapshotHash: nil, snapshotBytes: nil,
          snapshotCount: Int(try connection.integer("SELECT count(*) FROM snapshots") ?? 0),
          deltasSinceSnapshot: session.deltasSinceSnapshot,
          bytesSinceSnapshot: try session.countBytesSinceSnapshot(),
          clientCount: Int(try connection.integer("SELECT count(*) FROM ledger") ?? 0),
          forgottenThrough: try session.storedForgottenThrough(),
          fileBytes: fileSize(session.path), walBytes: fileSize(session.path + "-wal"),
          pageSize: Int(try connection.integer("PRAGMA page_size") ?? 0),
          pageCount: Int(try connection.integer("PRAGMA page_count") ?? 0),
          freePages: Int(try connection.integer("PRAGMA freelist_count") ?? 0))
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
  }
}
