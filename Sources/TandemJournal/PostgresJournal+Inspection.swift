import TandemProtocol

extension PostgresJournal {
  /// The journal's figures now, read in one consistent transaction.
  public func stats() throws(JournalError) -> JournalStats {
    try inspect(actions: 0).stats
  }

  /// What `tandem journal inspect` shows, as ``Journal/inspect(actions:)`` does for a file: the
  /// figures, the schema recorded with the latest snapshot and the latest `actions` actions,
  /// with the lease and the room the tables take, read in one `REPEATABLE READ READ ONLY`
  /// transaction (one state of the database, whatever the leader commits meanwhile; no lease
  /// needed, nothing written).
  public func inspect(actions: Int) throws(JournalError) -> JournalInspection {
    try read { (connection) throws(JournalError) -> JournalInspection in
      let meta = try meta(connection)
      let result = try postgres { () throws(PostgresError) in
        try connection.exec(Self.figures, [.textArray(Self.tables)])
      }
      let latest = try postgres { () throws(PostgresError) in
        try connection.exec(
          """
          SELECT sequence, hash, length(document), schema FROM tandem_snapshots
          ORDER BY sequence DESC LIMIT 1
          """)
      }
      let snapshot = latest.int64(0, 0).map { UInt64($0) }
      let since = try postgres { () throws(PostgresError) in
        try connection.exec(
          "SELECT count(*), coalesce(sum(length(patch)), 0)::int8 FROM tandem_deltas "
            + "WHERE sequence > $1", [.int8(Int64(snapshot ?? 0))])
      }
      func figure(_ column: Int) -> Int { Int(result.int64(0, column) ?? 0) }
      let stats = JournalStats(
        epoch: meta.epoch, formatVersion: meta.version, durability: nil,
        oldestSequence: result.int64(0, 3).map { UInt64($0) }, lastSequence: meta.lastSequence,
        deltaCount: figure(0), patchCount: figure(2), deltaBytes: figure(1),
        snapshotSequence: snapshot, snapshotHash: latest.int64(0, 1).map { UInt64(bitPattern: $0) },
        snapshotBytes: latest.int64(0, 2).map { Int($0) }, snapshotCount: figure(4),
        deltasSinceSnapshot: Int(since.int64(0, 0) ?? 0),
        bytesSinceSnapshot: Int(since.int64(0, 1) ?? 0), clientCount: figure(5),
        forgottenThrough: meta.forgottenThrough,
        storage: .database(
          JournalStats.Database(tableBytes: figure(6), lease: try lease(connection))))
      return JournalInspection(
        location: location, stats: stats, snapshotSchema: snapshot.map { _ in latest.bytes(0, 3) },
        actions: try recentActions(connection, actions))
    }
  }

  /// The journal's tables (the lease's are not counted).
  private static let tables = [
    "tandem_meta", "tandem_deltas", "tandem_ledger", "tandem_snapshots", "tandem_snapshot_ledger",
  ]

  /// The deltas' count, patch bytes, patch count and oldest sequence, the snapshots' and the
  /// ledger's counts, and the bytes of the tables named in $1.
  private static let figures = """
    SELECT count(*), coalesce(sum(length(patch)), 0)::int8,
      count(*) FILTER (WHERE length(patch) > 0), min(sequence),
      (SELECT count(*) FROM tandem_snapshots), (SELECT count(*) FROM tandem_ledger),
      (SELECT sum(pg_total_relation_size(name::regclass))::int8 FROM unnest($1::text[]) name)
    FROM tandem_deltas
    """

  /// The lease as `connection`'s transaction sees it; nil when no leader took it (or its table
  /// is missing).
  func lease(_ connection: PostgresConnection) throws(JournalError) -> LeaseRecord? {
    try postgres { () throws(PostgresError) -> LeaseRecord? in
      guard try connection.exec("SELECT to_regclass('tandem_lease') IS NOT NULL").bool(0, 0) == true
      else { return nil }
      return PostgresLeaseSchema.record(try connection.exec(PostgresLeaseSchema.current))
    }
  }

  /// The latest `count` actions kept, oldest first.
  private func recentActions(
    _ connection: PostgresConnection, _ count: Int
  ) throws(JournalError) -> [Journal.RecordedAction] {
    guard count > 0 else { return [] }
    let rows = try postgres { () throws(PostgresError) in
      try connection.exec(
        """
        SELECT sequence, client, number, generation, key, tag FROM tandem_deltas
        ORDER BY sequence DESC LIMIT $1
        """, [.int8(Int64(count))])
    }
    return (0..<rows.count).reversed().map { row in
      Journal.RecordedAction(
        sequence: UInt64(rows.int64(row, 0) ?? 0),
        origin: Origin(
          client: rows.string(row, 1), number: UInt64(bitPattern: rows.int64(row, 2) ?? 0),
          generation: UInt64(bitPattern: rows.int64(row, 3) ?? 0), key: rows.string(row, 4)),
        tag: rows.string(row, 5))
    }
  }
}
