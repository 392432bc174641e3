import StatePatch
import TandemProtocol

extension PostgresJournal {
  /// What a leader restarts from, read in one consistent transaction: the epoch (always
  /// ``EpochContinuity/continued``: a PostgreSQL commit is durable, so no tail can be lost),
  /// the latest snapshot, the deltas after it (their hash chain checked) and the ledger.
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` or ``JournalError/corrupt(path:detail:)``
  ///   for a history that does not check out; ``JournalError/postgres(location:_:)``.
  public func recover() throws(JournalError) -> JournalRecovery {
    try read { (connection) throws(JournalError) -> JournalRecovery in
      let meta = try meta(connection)
      let snapshot = try latestSnapshot(connection)
      let from = (snapshot?.sequence ?? 0) + 1
      let deltas =
        from > meta.lastSequence
        ? [] : try rows(connection, from: from, meta: meta, maximumBytes: .max) ?? []
      if snapshot == nil && !deltas.isEmpty { throw .noBaseSnapshot(path: location) }
      if let last = deltas.last?.sequence ?? snapshot?.sequence, last != meta.lastSequence {
        throw .gap(path: location, after: last, next: nil)
      }
      let entries = try ledgerRows(
        connection, "SELECT \(PostgresJournalSchema.ledgerColumns) FROM tandem_ledger", [])
      return JournalRecovery(
        epoch: meta.epoch, epochContinuity: .continued, snapshot: snapshot, deltas: deltas,
        ledger: ClientLedger(restoring: entries, forgottenThrough: meta.forgottenThrough))
    }
  }

  /// The deltas from `sequence` to the last one, for a follower's catch-up, grouped as they
  /// were appended; nil when `sequence` does not start a stored delta or they hold more than
  /// `maximumBytes` patch bytes (as ``Journal/deltas(from:maximumBytes:)``).
  public func deltas(
    from sequence: UInt64, maximumBytes: Int = .max
  ) throws(JournalError)
    -> [Delta]?
  {
    try read { (connection) throws(JournalError) -> [Delta]? in
      let meta = try meta(connection)
      guard sequence >= 1, sequence <= meta.lastSequence + 1 else { return nil }
      if sequence == meta.lastSequence + 1 { return [] }
      return try rows(connection, from: sequence, meta: meta, maximumBytes: maximumBytes)
    }
  }

  /// The latest snapshot stored, with its ledger, or nil when there is none.
  public func latestSnapshot() throws(JournalError) -> JournalSnapshot? {
    try read { (connection) throws(JournalError) in try latestSnapshot(connection) }
  }

  func latestSnapshot(_ connection: PostgresConnection) throws(JournalError) -> JournalSnapshot? {
    let result = try postgres { () throws(PostgresError) in
      try connection.exec(
        "SELECT sequence, hash, document, schema FROM tandem_snapshots ORDER BY sequence DESC LIMIT 1"
      )
    }
    guard result.count == 1, let sequence = result.int64(0, 0), let hash = result.int64(0, 1)
    else { return nil }
    let document = result.bytes(0, 2)
    guard JSONValue.fnv1a(document) == UInt64(bitPattern: hash) else {
      throw .corrupt(
        path: location,
        detail: "the snapshot at sequence \(sequence) does not match its hash")
    }
    let entries = try ledgerRows(
      connection,
      "SELECT \(PostgresJournalSchema.ledgerColumns) FROM tandem_snapshot_ledger WHERE snapshot = $1",
      [.int8(sequence)])
    let meta = try meta(connection)
    return JournalSnapshot(
      sequence: UInt64(sequence), hash: UInt64(bitPattern: hash), document: document,
      ledger: ClientLedger(restoring: entries, forgottenThrough: meta.forgottenThrough),
      schema: result.bytes(0, 3))
  }

  /// The ledger entries `sql` selects (``PostgresJournalSchema/ledgerColumns``).
  func ledgerRows(
    _ connection: PostgresConnection, _ sql: String, _ parameters: [PostgresValue]
  )
    throws(JournalError) -> [String: ClientLedger.Entry]
  {
    let result = try postgres { () throws(PostgresError) in try connection.exec(sql, parameters) }
    var entries: [String: ClientLedger.Entry] = [:]
    for row in 0..<result.count {
      let client = result.string(row, 0)
      var entry = ClientLedger.Entry(
        lastNumber: UInt64(bitPattern: result.int64(row, 1) ?? 0),
        lastSequence: UInt64(bitPattern: result.int64(row, 2) ?? 0),
        lastActive: UInt64(bitPattern: result.int64(row, 3) ?? 0),
        generation: UInt64(bitPattern: result.int64(row, 5) ?? 0), key: result.string(row, 6))
      guard let (rejections, runs) = LedgerRejections.decode(result.bytes(row, 4)) else {
        throw .corrupt(
          path: location, detail: "the rejections of client \(client) are not a list")
      }
      entry.rejections = rejections
      entry.rejectedRuns = runs
      entries[client] = entry
    }
    return entries
  }

  /// The deltas from `sequence` (which must start one) through the last, grouped, each row
  /// checked against the hash chain; nil when `sequence` does not start a delta or the patches
  /// pass `maximumBytes`.
  func rows(
    _ connection: PostgresConnection, from sequence: UInt64, meta: PostgresJournalMeta,
    maximumBytes: Int
  ) throws(JournalError) -> [Delta]? {
    let before = try postgres { () throws(PostgresError) in
      try connection.exec(
        """
        SELECT (SELECT min(sequence) FROM tandem_deltas),
          (SELECT chain FROM tandem_deltas WHERE sequence = $1),
          (SELECT length(patch) FROM tandem_deltas WHERE sequence = $1)
        """, [.int8(Int64(sequence) - 1)])
    }
    let oldest = before.int64(0, 0).map { UInt64($0) }
    var chain: UInt64
    if let previous = before.int64(0, 1) {
      // The row before must close a delta for `sequence` to start one.
      guard (before.int64(0, 2) ?? 0) > 0 else { return nil }
      chain = UInt64(bitPattern: previous)
    } else if oldest == sequence {
      chain = meta.chainBase
    } else {
      return nil
    }
    let result = try postgres { () throws(PostgresError) in
      try connection.exec(
        """
        SELECT \(PostgresJournalSchema.deltaColumns)
        FROM tandem_deltas WHERE sequence >= $1 ORDER BY sequence
        """, [.int8(Int64(sequence))])
    }
    var deltas: [Delta] = []
    var pending: [AppliedAction] = []
    var expected = sequence
    var bytes = 0
    for index in 0..<result.count {
      let row = Self.deltaRow(result, index)
      guard row.sequence == expected else {
        throw .gap(path: location, after: expected - 1, next: row.sequence)
      }
      expected += 1
      chain = DeltaChain.link(
        previous: chain, sequence: row.sequence, origin: row.action.origin, tag: row.action.tag,
        patch: row.patch)
      guard chain == row.chain else {
        throw .corrupt(path: location, detail: DeltaChain.mismatch(at: row.sequence))
      }
      pending.append(row.action)
      guard !row.patch.isEmpty else { continue }
      bytes += row.patch.count
      if bytes > maximumBytes { return nil }
      deltas.append(Delta(sequence: row.sequence, actions: pending, patch: row.patch))
      pending = []
    }
    guard pending.isEmpty else {
      throw .corrupt(
        path: location, detail: "the history ends inside a delta, at sequence \(expected - 1)")
    }
    return deltas
  }

  /// The row `index` of `result`, which selected ``PostgresJournalSchema/deltaColumns``.
  static func deltaRow(_ result: PostgresResult, _ index: Int) -> DeltaRow {
    DeltaRow(
      sequence: UInt64(result.int64(index, 0) ?? 0),
      action: AppliedAction(
        origin: Origin(
          client: result.string(index, 1),
          number: UInt64(bitPattern: result.int64(index, 2) ?? 0),
          generation: UInt64(bitPattern: result.int64(index, 3) ?? 0),
          key: result.string(index, 4)),
        tag: result.string(index, 5)),
      patch: result.bytes(index, 6), chain: UInt64(bitPattern: result.int64(index, 7) ?? 0))
  }
}
