import TandemProtocol

extension Journal {
  /// What a committed batch left behind.
  public struct Commit: Sendable, Equatable {
    /// The journal's last sequence after the commit.
    public var lastSequence: UInt64
    /// Whether the snapshot policy asks for a snapshot now.
    public var snapshotDue: Bool
  }

  /// Stores one committed batch in one transaction: its deltas, the client ledger entries it
  /// changed, and the clients it forgot with the ledger's ``ClientLedger/forgottenThrough``. This is the group commit unit: when it returns, the
  /// batch is as durable as the ``Durability`` promises; when it throws, nothing of it is stored.
  ///
  /// Each delta takes one `deltas` row per action, in sequence order: the last row carries the
  /// delta's patch, the rows before it (for a delta of several actions) an empty patch, which
  /// reads as "this delta continues in the next row". ``deltas(from:maximumBytes:)`` and ``recover()``
  /// return the deltas grouped as they were appended.
  ///
  /// - Parameters:
  ///   - deltas: the batch's deltas, gapless: the first one's ``Delta/firstSequence`` is
  ///     ``lastSequence`` + 1, each next one's the previous one's ``Delta/sequence`` + 1 (may
  ///     be empty for a batch of rejections only).
  ///   - ledger: the new entries of the clients whose entries the batch changed.
  ///   - forgetting: clients the leader evicted from its ledger.
  ///   - forgottenThrough: the ledger's ``ClientLedger/forgottenThrough`` after the eviction
  ///     (stored when `forgetting` is not empty).
  /// - Precondition: no delta has an empty patch (a patch is a JSON array, never empty bytes).
  /// - Throws: ``JournalError/sequenceMismatch(expected:got:)`` (checked before anything is
  ///   written), ``JournalError/noBaseSnapshot(path:)`` before the first snapshot, or
  ///   ``JournalError/sqlite(path:_:)`` when the commit fails (disk full, I/O error...); as the
  ///   session's first write, what ``recover()`` throws for a history it refuses.
  @discardableResult
  public func append(
    _ deltas: [Delta], ledger: [String: ClientLedger.Entry] = [:], forgetting: [String] = [],
    forgottenThrough: UInt64 = 0
  ) throws(JournalError) -> Commit {
    let policy = configuration.snapshotPolicy
    return try withSession { (session) throws(JournalError) -> Commit in
      try session.prepareToWrite()
      guard session.snapshotSequence != nil else { throw .noBaseSnapshot(path: session.path) }
      var expected = session.lastSequence + 1
      for delta in deltas {
        guard delta.firstSequence == expected else {
          throw .sequenceMismatch(expected: expected, got: delta.firstSequence)
        }
        precondition(
          !delta.patch.isEmpty,
          "the delta at sequence \(delta.sequence) has an empty patch; a patch is a JSON array")
        expected = delta.sequence + 1
      }
      if deltas.isEmpty && ledger.isEmpty && forgetting.isEmpty {
        return Commit(
          lastSequence: session.lastSequence, snapshotDue: try session.snapshotDue(policy))
      }
      // The chain's value at each row, computed first: the mark written before the commit
      // records the value at the batch's last row.
      var links: [UInt64] = []
      var chain = session.lastChain
      for delta in deltas {
        for (sequence, action) in delta.sequencedActions {
          chain = DeltaChain.link(
            previous: chain, sequence: sequence, origin: action.origin, tag: action.tag,
            patch: sequence == delta.sequence ? delta.patch : [])
          links.append(chain)
        }
      }
      let last = expected - 1
      try session.markIntent(last, chain: chain)
      var bytes = 0
      do throws(JournalError) {
        try session.sqlite { () throws(SQLiteError) in
          let connection = session.connection
          let insert = try connection.statement(JournalSchema.insertDelta)
          let upsert = try connection.statement(JournalSchema.upsertLedger)
          let remove = try connection.statement(JournalSchema.deleteLedger)
          try connection.transaction { () throws(SQLiteError) in
            var row = 0
            for delta in deltas {
              for (sequence, action) in delta.sequencedActions {
                // Only the delta's last row carries its patch; an empty one continues.
                let patch = sequence == delta.sequence ? delta.patch : []
                let link = links[row]
                row += 1
                try insert.run { (row: SQLiteStatement) throws(SQLiteError) in
                  try row.bind(sequence, at: 1)
                  try row.bind(action.origin.client, at: 2)
                  try row.bind(action.origin.number, at: 3)
                  try row.bind(action.tag, at: 4)
                  try row.bind(patch, at: 5)
                  try row.bind(action.origin.generation, at: 6)
                  try row.bind(link, at: 7)
                  try row.bind(action.origin.key, at: 8)
                  _ = try row.step()
                }
              }
              bytes += delta.patch.count
            }
            for (client, entry) in ledger {
              try upsert.run { (row: SQLiteStatement) throws(SQLiteError) in
                try row.bindLedgerEntry(entry, of: client)
                _ = try row.step()
              }
            }
            for client in forgetting {
              try remove.run { (row: SQLiteStatement) throws(SQLiteError) in
                try row.bind(client, at: 1)
                _ = try row.step()
              }
            }
            if !forgetting.isEmpty { try session.raiseForgottenThrough(to: forgottenThrough) }
          }
        }
      } catch {
        session.markCommitted(session.lastSequence, chain: session.lastChain)
        throw error
      }
      session.markCommitted(last, chain: chain)
      session.deltasSinceSnapshot += Int(expected - 1 - session.lastSequence)
      session.lastSequence = last
      session.lastChain = chain
      session.bytesSinceSnapshot = session.bytesSinceSnapshot.map { $0 + bytes }
      return Commit(
        lastSequence: session.lastSequence, snapshotDue: try session.snapshotDue(policy))
    }
  }

  /// Whether the snapshot policy asks for a snapshot now: there is none yet, or the sequences
  /// (actions) or patch bytes appended since the latest one reach the policy's limits.
  public var shouldSnapshot: Bool {
    get throws(JournalError) {
      let policy = configuration.snapshotPolicy
      return try withSession { (session) throws(JournalError) -> Bool in
        try session.snapshotDue(policy)
      }
    }
  }
}

extension JournalSession {
  /// Records in the high-water mark, before a commit of the sequences up to `sequence`, that
  /// the commit is starting, in the page cache (see ``HighWaterMark`` for why no sync is
  /// needed). Nothing when the batch adds no sequence.
  ///
  /// - Throws: ``JournalError/system(path:call:errno:)`` when the mark cannot be written; the
  ///   commit must not go ahead then (nothing of it is stored).
  package func markIntent(_ sequence: UInt64, chain: UInt64) throws(JournalError) {
    guard let markFile, sequence > lastSequence else { return }
    let mark = HighWaterMark(
      epoch: epoch, committed: lastSequence, intent: sequence, chain: chain, boot: boot)
    try markFile.write(mark, sync: false)
  }

  /// Records in the high-water mark that the commit up to `sequence` (with the chain's value
  /// `chain` there) returned, or after a failed one that the history still ends at `sequence`,
  /// in the page cache: a crash of the
  /// process keeps it, and the next commit's synced write takes it to the disk. A failure
  /// here is left to that next write, which reports it and stops the commit.
  package func markCommitted(_ sequence: UInt64, chain: UInt64) {
    guard let markFile else { return }
    let mark = HighWaterMark(
      epoch: epoch, committed: sequence, intent: sequence, chain: chain, boot: boot)
    try? markFile.write(mark, sync: false)
  }

  /// Whether `policy` asks for a snapshot.
  package func snapshotDue(_ policy: Journal.SnapshotPolicy) throws(JournalError) -> Bool {
    if snapshotSequence == nil || deltasSinceSnapshot >= policy.deltaCount { return true }
    return try sqlite { () throws(SQLiteError) -> Int in try countBytesSinceSnapshot() }
      >= policy.patchBytes
  }
}
