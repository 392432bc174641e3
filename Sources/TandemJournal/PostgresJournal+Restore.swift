import TandemProtocol

extension PostgresJournal {
  /// What ``restore(from:into:)`` wrote.
  public struct Restore: Sendable, Equatable {
    /// The database restored into: its connection string without the password.
    public var location: String
    /// The restored history's epoch, minted by the restore: followers resync.
    public var epoch: Epoch
    /// The epoch the backup recorded: that of the history it was taken from.
    public var backupEpoch: Epoch
    /// The sequence of the snapshot restored; nil for a backup that holds none.
    public var snapshotSequence: UInt64?
    /// The oldest delta row restored (those before the snapshot serve catch-ups); nil when the
    /// backup holds none.
    public var oldestSequence: UInt64?
    /// The last sequence the backup holds, now the restored history's.
    public var lastSequence: UInt64
    /// The actions (sequences) restored after the snapshot, which a leader replays.
    public var actionsAfterSnapshot: Int
  }

  /// Copies the journal file at `path` (a backup made by ``backup(to:)`` or
  /// ``Journal/backup(to:)``, or any journal of this build's file format) into the PostgreSQL
  /// database at `connection`, as its journal, with a new epoch.
  ///
  /// The database must hold no journal: its Tandem tables are absent (they are created) or
  /// empty, and no leader holds the lease. In one transaction, the restore creates the tables
  /// when they are missing, locks them against writers and lease acquisitions, checks that, and
  /// copies the backup's latest snapshot, its delta rows (checked as ``backup(to:)`` checks
  /// them, each with its link in the hash chain), its current ledger, and the meta records,
  /// with an epoch of its own: the history restored never continues the backup's epoch, since
  /// the history it was taken from may have gone on (acknowledged actions after the backup are
  /// lost, and no replica may keep a state built on them). A leader starting on the database
  /// recovers the backup's state in the new epoch; followers resync.
  ///
  /// The file is read in one read transaction and never written: it may be a running leader's
  /// journal.
  ///
  /// - Throws: ``JournalError/restoreRefused(location:reason:)`` when the database holds a
  ///   journal or a leader holds its lease; ``JournalError/notFound(path:)`` when there is no
  ///   journal at `path`; ``JournalError/gap(path:after:next:)`` or
  ///   ``JournalError/corrupt(path:detail:)`` for a backup whose history does not check out;
  ///   what opening the file throws; ``JournalError/postgres(location:_:)``. Nothing is written
  ///   to the database when it throws.
  public static func restore(
    from path: String, into connection: String
  ) throws(JournalError) -> Restore {
    let source = try JournalSession.openForReading(path: path)
    let (string, target) = try connect(connection)
    let location = string.description
    func postgres<T>(_ body: () throws(PostgresError) -> T) throws(JournalError) -> T {
      do { return try body() } catch { throw .postgres(location: location, error) }
    }
    var epoch = Epoch.random()
    while epoch == source.epoch { epoch = Epoch.random() }
    return try target.transaction(wrap: { JournalError.postgres(location: location, $0) }) {
      () throws(JournalError) -> Restore in
      try postgres { () throws(PostgresError) in
        try createTables(on: target)
        try target.exec(
          """
          LOCK TABLE tandem_lease, tandem_meta, tandem_deltas, tandem_ledger, tandem_snapshots,
            tandem_snapshot_ledger IN EXCLUSIVE MODE
          """)
        // The file is read between the writes: a slow disk must not end the session.
        try target.exec("SET LOCAL idle_in_transaction_session_timeout = '60s'")
      }
      if let reason = try postgres({ () throws(PostgresError) in try refusal(target) }) {
        throw .restoreRefused(location: location, reason: reason)
      }
      try source.sqlite { () throws(SQLiteError) in
        try source.connection.execute("BEGIN DEFERRED")
        try source.reloadCounters()
      }
      defer { _ = try? source.connection.execute("ROLLBACK") }
      let (snapshot, ledger, base) = try source.sqlite {
        () throws(SQLiteError) -> (JournalSnapshot?, ClientLedger, UInt64?) in
        (try source.latestSnapshot(), try source.ledgerEntries(), try source.chainBase())
      }
      guard let base else {
        throw .corrupt(path: path, detail: "the hash chain's base is not stored")
      }
      var check = DeltaRowCheck(
        location: path, chainBase: base, snapshot: snapshot?.sequence,
        lastSequence: source.lastSequence)
      try postgres { () throws(PostgresError) in
        if let snapshot { try storeSnapshot(snapshot, on: target) }
        try target.exec("DELETE FROM tandem_ledger")
        for (client, entry) in ledger.entries.sorted(by: { $0.key < $1.key }) {
          try target.exec(PostgresJournalSchema.insertLedger, ledgerParameters(client, entry))
        }
      }
      try source.forEachRowBatch(size: transferBatch) { (rows) throws(JournalError) in
        var batch = PostgresDeltaRows()
        for row in rows {
          try check.check(row)
          batch.add(row)
        }
        try postgres { () throws(PostgresError) in try batch.insert(on: target) }
      }
      try check.finish()
      typealias Schema = PostgresJournalSchema
      let records: [(String, Int64)] = [
        (Schema.epochKey, Int64(bitPattern: epoch.rawValue)),
        (Schema.versionKey, Schema.version),
        (Schema.lastSequenceKey, Int64(source.lastSequence)),
        (Schema.lastChainKey, Int64(bitPattern: check.chain)),
        (Schema.chainBaseKey, Int64(bitPattern: base)),
        (Schema.forgottenThroughKey, Int64(bitPattern: ledger.forgottenThrough)),
        (Schema.deltasSinceSnapshotKey, Int64(check.deltasAfterSnapshot)),
        (Schema.bytesSinceSnapshotKey, Int64(check.bytesAfterSnapshot)),
      ]
      try postgres { () throws(PostgresError) in
        for (key, value) in records {
          try target.exec(Schema.upsertMeta, [.text(key), .int8(value)])
        }
      }
      return Restore(
        location: location, epoch: epoch, backupEpoch: source.epoch,
        snapshotSequence: snapshot?.sequence, oldestSequence: check.first,
        lastSequence: source.lastSequence, actionsAfterSnapshot: check.rowsAfterSnapshot)
    }
  }

  /// Why a restore must not write into the database `connection` reaches, whose tables it has
  /// locked: a leader holds the lease, or a journal is there; nil when neither.
  private static func refusal(_ connection: PostgresConnection) throws(PostgresError) -> String? {
    if let lease = PostgresLeaseSchema.record(try connection.exec(PostgresLeaseSchema.current)),
      !lease.isExpired
    {
      return "leader \(lease.holder) holds the journal's lease (fencing epoch "
        + "\(lease.fencingEpoch), \(lease.remaining) left): stop the leaders that share this "
        + "database first, so that no leader serves another history while it changes"
    }
    let found = try connection.exec(
      """
      SELECT (SELECT value FROM tandem_meta WHERE key = 'version'),
        (SELECT value FROM tandem_meta WHERE key = 'epoch'),
        (SELECT value FROM tandem_meta WHERE key = 'last_sequence'),
        (SELECT count(*) FROM tandem_snapshots), (SELECT count(*) FROM tandem_deltas),
        (SELECT count(*) FROM tandem_ledger)
      """)
    let version = found.int64(0, 0) ?? PostgresJournalSchema.version
    let last = found.int64(0, 2) ?? 0
    let (snapshots, rows, clients) =
      (found.int64(0, 3) ?? 0, found.int64(0, 4) ?? 0, found.int64(0, 5) ?? 0)
    let advice =
      "restore writes only into a database without a journal, so that it never replaces "
      + "one: restore into a new database and point the leaders at it"
    if last > 0 || snapshots > 0 || rows > 0 || clients > 0 {
      let epoch = Epoch(rawValue: UInt64(bitPattern: found.int64(0, 1) ?? 0))
      return "the database already holds a journal (epoch \(epoch), history up to sequence "
        + "\(last): \(snapshots) snapshot(s), \(rows) delta row(s), \(clients) client(s)); "
        + advice
    }
    guard version == PostgresJournalSchema.version else {
      return "the database holds journal tables of format version \(version), this build "
        + "writes version \(PostgresJournalSchema.version); " + advice
    }
    return nil
  }
}
