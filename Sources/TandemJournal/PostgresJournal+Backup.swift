import TandemProtocol

extension PostgresJournal {
  /// Copies the journal, while leaders may be committing to it, into a new SQLite journal
  /// file at `destination`: one consistent state of the history, read in one `REPEATABLE READ
  /// READ ONLY` transaction without the lease (nothing is written to the database).
  ///
  /// The copy is a journal of this build's file format, which ``Journal/init(readingAt:)``,
  /// `tandem journal verify` and `inspect` read, and a leader can start on: it holds the
  /// epoch, the latest snapshot with its ledger, every delta row kept (those after the
  /// snapshot and those kept before it for catch-up, each with its link in the hash chain, so
  /// the copy's chain is checked as the original's), the current ledger and its
  /// forgotten-through sequence. Every row is checked as it is copied (gapless, on the chain,
  /// no history ending inside a delta): a history a leader would refuse is not copied.
  ///
  /// A copy never continues its history's epoch. Like a backup of a file
  /// (``Journal/backup(to:)``), it has no high-water mark while recording that it keeps one, so
  /// a leader starting on it mints a new epoch; ``restore(from:into:)`` mints one too. Either
  /// way followers resync, and the actions acknowledged after the backup are lost with it.
  ///
  /// - Throws: ``JournalError/system(path:call:errno:)`` with `EEXIST` when a file is at
  ///   `destination` (or its `-wal`, `-journal` or `-mark`: a backup never overwrites);
  ///   ``JournalError/gap(path:after:next:)`` or ``JournalError/corrupt(path:detail:)`` for a
  ///   history that does not check out; ``JournalError/postgres(location:_:)``; what writing
  ///   the file throws. The partial file is removed when it throws.
  public func backup(to destination: String) throws(JournalError) -> Journal.Backup {
    try JournalFileWriter.checkFree(destination)
    var file: JournalFileWriter?
    do throws(JournalError) {
      try read { (connection) throws(JournalError) in
        // The file is written between the reads: a slow disk must not end the session.
        try postgres { () throws(PostgresError) in
          _ = try connection.exec("SET LOCAL idle_in_transaction_session_timeout = '60s'")
        }
        let meta = try meta(connection)
        let snapshot = try latestSnapshot(connection)
        let ledger = ClientLedger(
          restoring: try ledgerRows(
            connection, "SELECT \(PostgresJournalSchema.ledgerColumns) FROM tandem_ledger", []),
          forgottenThrough: meta.forgottenThrough)
        let writer = try JournalFileWriter(creating: destination, epoch: meta.epoch)
        file = writer
        try writer.start(snapshot: snapshot, ledger: ledger, chainBase: meta.chainBase)
        var check = DeltaRowCheck(
          location: location, chainBase: meta.chainBase, snapshot: snapshot?.sequence,
          lastSequence: meta.lastSequence)
        while true {
          let result = try postgres { () throws(PostgresError) in
            try connection.exec(
              """
              SELECT \(PostgresJournalSchema.deltaColumns) FROM tandem_deltas
              WHERE sequence > $1 ORDER BY sequence LIMIT \(Self.transferBatch)
              """, [.int8(Int64(check.last ?? 0))])
          }
          guard result.count > 0 else { break }
          let rows = (0..<result.count).map { Self.deltaRow(result, $0) }
          for row in rows { try check.check(row) }
          try writer.append(rows)
        }
        try check.finish()
      }
      guard let file else { preconditionFailure("the read made the file") }
      return try file.commit()
    } catch {
      file?.discard()
      throw error
    }
  }

  /// How many `deltas` rows a backup or a restore reads and writes at a time.
  static let transferBatch = 1000
}
