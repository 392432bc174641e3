import CSQLite
import TandemProtocol

extension Journal {
  /// What a compaction removed.
  public struct Compaction: Sendable, Equatable {
    /// Rows removed, one per sequence (action): the deltas that end more than
    /// ``Configuration/catchUpWindow`` sequences behind the latest snapshot.
    public var deltasRemoved: Int
    /// Older snapshots removed (only the latest is kept).
    public var snapshotsRemoved: Int
    /// Whether the closing checkpoint copied the whole log into the file (and, for
    /// ``Journal/compact(progress:)``, truncated it); a reader in a transaction can hold it back.
    public var checkpointed: Bool
  }

  /// Removes what recovery and catch-up no longer need: snapshots older than the latest, and
  /// deltas more than ``Configuration/catchUpWindow`` sequences behind it, in transactions of
  /// at most 50,000 rows; then checkpoints the log (`wal_checkpoint(TRUNCATE)`).
  ///
  /// Deltas are removed whole: when the window's edge falls inside a delta of several actions,
  /// that delta is kept, so the oldest row kept always starts a delta (which
  /// ``deltas(from:maximumBytes:)`` relies on). Each transaction also ends on a delta's last row.
  ///
  /// - Parameter progress: called after each step with a line to show (for long runs).
  @discardableResult
  public func compact(progress: (String) -> Void = { _ in }) throws(JournalError) -> Compaction {
    try compact(truncating: true, progress: progress)
  }

  /// ``compact(progress:)`` with a truncating checkpoint (which waits up to a second for
  /// readers) or a passive one (which never waits), as after each snapshot.
  package func compact(
    truncating: Bool, progress: (String) -> Void = { _ in }
  ) throws(JournalError) -> Compaction {
    let window = configuration.catchUpWindow
    let chunk: Int64 = 50_000
    return try withSession { (session) throws(JournalError) -> Compaction in
      try session.prepareToWrite()
      guard let snapshot = session.snapshotSequence else {
        return Compaction(
          deltasRemoved: 0, snapshotsRemoved: 0,
          checkpointed: try session.sqlite { () throws(SQLiteError) in
            try session.checkpoint(truncate: truncating)
          })
      }
      let edge = Int64(bitPattern: snapshot > window ? snapshot - window : 0)
      let connection = session.connection
      return try session.sqlite { () throws(SQLiteError) -> Compaction in
        // Remove whole deltas only: the last removed row must close a delta.
        let cutoff = try session.deltaEnd(atOrBefore: edge) ?? 0
        let snapshotsRemoved = try connection.transaction { () throws(SQLiteError) -> Int in
          let older = Int64(bitPattern: snapshot)
          try connection.execute("DELETE FROM snapshot_ledger WHERE snapshot < \(older)")
          try connection.execute("DELETE FROM snapshots WHERE sequence < \(older)")
          return Int(connection.changes)
        }
        let oldest =
          try session.sequence("SELECT min(sequence) FROM deltas", in: "deltas")
          .map { Int64($0) } ?? cutoff + 1
        let total = max(0, cutoff - oldest + 1)
        var removed: Int64 = 0
        var bound = oldest - 1
        while bound < cutoff {
          // The chunk's last row closes a delta: the greatest such row within the chunk, or
          // (for a delta longer than a chunk) the first after the previous bound.
          let target = bound + min(chunk, cutoff - bound)
          if let end = try session.deltaEnd(atOrBefore: target), end > bound {
            bound = end
          } else {
            bound = try session.deltaEnd(after: bound) ?? cutoff
          }
          try connection.transaction { () throws(SQLiteError) in
            // The chain then starts from the last row removed.
            try connection.statement(JournalSchema.raiseChainBase).run {
              (row: SQLiteStatement) throws(SQLiteError) in
              try row.bind(Int64(bound), at: 1)
              _ = try row.step()
            }
            try connection.execute("DELETE FROM deltas WHERE sequence <= \(bound)")
            removed += connection.changes
          }
          if total > chunk {
            progress("compact: removed \(removed) of \(total) deltas")
          }
        }
        let checkpointed = try session.checkpoint(truncate: truncating)
        progress(
          "compact: removed \(removed) deltas and \(snapshotsRemoved) snapshots; checkpoint "
            + (checkpointed ? "complete" : "partial (a reader holds the log)"))
        return Compaction(
          deltasRemoved: Int(removed), snapshotsRemoved: snapshotsRemoved,
          checkpointed: checkpointed)
      }
    }
  }

  /// Copies the write-ahead log into the database file: `truncate` waits for readers and
  /// truncates the log to zero bytes (`SQLITE_CHECKPOINT_TRUNCATE`); otherwise copies what it
  /// can without waiting (`SQLITE_CHECKPOINT_PASSIVE`). Returns whether the whole log was copied.
  @discardableResult
  public func checkpoint(truncate: Bool = true) throws(JournalError) -> Bool {
    try withSession { (session) throws(JournalError) -> Bool in
      try session.prepareToWrite()
      return try session.sqlite { () throws(SQLiteError) -> Bool in
        try session.checkpoint(truncate: truncate)
      }
    }
  }

  /// Returns unused pages to the file system (`PRAGMA incremental_vacuum`), shrinking the
  /// file after a compaction; then checkpoints. Returns the bytes the file shrank by.
  @discardableResult
  public func reclaimSpace() throws(JournalError) -> Int {
    try withSession { (session) throws(JournalError) -> Int in
      try session.prepareToWrite()
      let before = fileSize(session.path)
      try session.sqlite { () throws(SQLiteError) in
        try session.connection.execute("PRAGMA incremental_vacuum")
        _ = try session.checkpoint(truncate: true)
      }
      return max(0, before - fileSize(session.path))
    }
  }
}

extension JournalSession {
  /// The greatest sequence at most `sequence` whose row closes a delta (carries a patch).
  package func deltaEnd(atOrBefore sequence: Int64) throws(SQLiteError) -> Int64? {
    try self.sequence(
      "SELECT sequence FROM deltas WHERE sequence <= ?1 AND length(patch) > 0 "
        + "ORDER BY sequence DESC LIMIT 1", in: "deltas", binding: UInt64(bitPattern: sequence)
    ).map { Int64($0) }
  }

  /// The least sequence after `sequence` whose row closes a delta (carries a patch).
  package func deltaEnd(after sequence: Int64) throws(SQLiteError) -> Int64? {
    try self.sequence(
      "SELECT sequence FROM deltas WHERE sequence > ?1 AND length(patch) > 0 "
        + "ORDER BY sequence LIMIT 1", in: "deltas", binding: UInt64(bitPattern: sequence)
    ).map { Int64($0) }
  }

  /// Runs a checkpoint; returns whether it copied the whole log (false when a reader held it).
  package func checkpoint(truncate: Bool) throws(SQLiteError) -> Bool {
    var logFrames: Int32 = 0
    var copied: Int32 = 0
    let mode = truncate ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
    let code = connection.withHandle { database in
      sqlite3_wal_checkpoint_v2(database, nil, mode, &logFrames, &copied)
    }
    if code == SQLITE_BUSY { return false }
    try connection.check(code, "sqlite3_wal_checkpoint_v2")
    return logFrames == copied
  }
}
