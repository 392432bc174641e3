import StatePatch
import TandemProtocol

extension Journal {
  /// Stores a snapshot of the state at the journal's last sequence, in one transaction: the
  /// canonical document, its hash (the protocol's FNV-1a of the bytes, checked whenever the
  /// snapshot is read back) and the whole client ledger, which also replaces the journal's
  /// current ledger (so clients the leader evicted are forgotten). Then, when
  /// ``Configuration/compactsAfterSnapshot`` is set, compacts (see ``compact(progress:)``) with a
  /// passive checkpoint, which never waits for readers.
  ///
  /// A new journal needs a first snapshot, of the initial state at sequence 0, before any
  /// append: it is the base recovery replays from.
  ///
  /// A snapshot is stored even when the file has reached ``Configuration/maximumFileBytes``
  /// (the file then grows past it by about the snapshot's size), since the compaction after it
  /// is what makes room again; the limit holds for appends.
  ///
  /// - Throws: ``JournalError/sequenceMismatch(expected:got:)`` unless `sequence` is
  ///   ``lastSequence``; ``JournalError/sqlite(path:_:)`` when the commit fails (nothing is
  ///   stored then); as the session's first write, what ``recover()`` throws for a history it
  ///   refuses.
  public func writeSnapshot(
    sequence: UInt64, document: [UInt8], ledger: ClientLedger, schema: [UInt8] = []
  ) throws(JournalError) {
    try withSession { (session) throws(JournalError) in
      try session.prepareToWrite()
      guard sequence == session.lastSequence else {
        throw .sequenceMismatch(expected: session.lastSequence, got: sequence)
      }
      let limit = configuration.maximumFileBytes
      try session.sqlite { () throws(SQLiteError) in
        // A file at its limit must still take the snapshot that lets compaction make room.
        if limit != nil { try session.connection.limitFileSize(to: nil) }
        let stored = Result { () throws(SQLiteError) in
          try session.storeSnapshot(
            sequence: sequence, hash: JSONValue.fnv1a(document), document: document,
            schema: schema, ledger: ledger)
        }
        // The limit is back whether or not the snapshot was stored.
        try session.connection.limitFileSize(to: limit)
        try stored.get()
      }
      session.snapshotSequence = sequence
      session.deltasSinceSnapshot = 0
      session.bytesSinceSnapshot = 0
    }
    if configuration.compactsAfterSnapshot {
      _ = try compact(truncating: false)
    }
  }

  /// The sequence of the latest snapshot stored, if any.
  package var snapshotSequence: UInt64? {
    withSession { $0.snapshotSequence }
  }

  /// The latest snapshot stored, with its ledger, or nil when there is none.
  public func latestSnapshot() throws(JournalError) -> JournalSnapshot? {
    try withSession { (session) throws(JournalError) -> JournalSnapshot? in
      try session.sqlite { () throws(SQLiteError) -> JournalSnapshot? in
        try session.latestSnapshot()
      }
    }
  }
}

extension JournalSession {
  /// Writes the snapshot rows and replaces the current ledger (raising the stored
  /// forgotten-through sequence to the ledger's), in one transaction.
  package func storeSnapshot(
    sequence: UInt64, hash: UInt64, document: [UInt8], schema: [UInt8] = [],
    ledger: ClientLedger
  ) throws(SQLiteError) {
    try connection.transaction { () throws(SQLiteError) in
      try storeSnapshotRows(
        sequence: sequence, hash: hash, document: document, schema: schema, ledger: ledger)
    }
  }

  /// ``storeSnapshot(sequence:hash:document:schema:ledger:)`` in the caller's transaction.
  package func storeSnapshotRows(
    sequence: UInt64, hash: UInt64, document: [UInt8], schema: [UInt8] = [],
    ledger: ClientLedger
  ) throws(SQLiteError) {
    let connection = connection
    let snapshot = try connection.statement(
      """
      INSERT OR REPLACE INTO snapshots (sequence, hash, document, schema)
      VALUES (?1, ?2, ?3, ?4)
      """)
    try snapshot.run { (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(sequence, at: 1)
      try row.bind(hash, at: 2)
      try row.bind(document, at: 3)
      try row.bind(schema, at: 4)
      _ = try row.step()
    }
    let clear = try connection.statement("DELETE FROM snapshot_ledger WHERE snapshot = ?1")
    try clear.run { (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(sequence, at: 1)
      _ = try row.step()
    }
    try replaceLedgerRows(with: ledger)
    try raiseForgottenThrough(to: ledger.forgottenThrough)
    // The snapshot's copy of the ledger: the rows just written, each encoded once.
    let saved = try connection.statement(JournalSchema.copyLedgerToSnapshot)
    try saved.run { (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(sequence, at: 1)
      _ = try row.step()
    }
  }

  /// Replaces the rows of the current ledger with `ledger`'s entries (its forgotten-through
  /// sequence is the caller's to store).
  package func replaceLedgerRows(with ledger: ClientLedger) throws(SQLiteError) {
    try connection.execute("DELETE FROM ledger")
    let current = try connection.statement(JournalSchema.upsertLedger)
    for (client, entry) in ledger.entries {
      try current.run { (row: SQLiteStatement) throws(SQLiteError) in
        try row.bindLedgerEntry(entry, of: client)
        _ = try row.step()
      }
    }
  }
}
