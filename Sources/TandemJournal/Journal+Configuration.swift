extension Journal {
  /// How a leader's journal is kept: durability, snapshot cadence, compaction and the log.
  public struct Configuration: Sendable, Equatable {
    /// What an acknowledged commit survives; see ``Durability``. `.off` opens no journal.
    public var durability: Durability
    /// When a new snapshot is due; see ``Journal/shouldSnapshot``.
    public var snapshotPolicy: SnapshotPolicy
    /// How many sequences compaction keeps behind the latest snapshot, so followers that are at
    /// most this far behind it catch up from the journal instead of taking a snapshot. The
    /// oldest kept delta is kept whole, so a few more may stay.
    public var catchUpWindow: UInt64
    /// Whether ``Journal/writeSnapshot(sequence:document:ledger:)`` compacts right after
    /// storing the snapshot (older snapshots and deltas outside the window are removed, then a
    /// passive checkpoint runs).
    public var compactsAfterSnapshot: Bool
    /// SQLite's automatic checkpoint: the write-ahead log is copied into the database file
    /// (a passive checkpoint) once it holds this many pages (`PRAGMA wal_autocheckpoint`).
    public var checkpointPages: Int
    /// The size in bytes the write-ahead log file is truncated to after a checkpoint
    /// (`PRAGMA journal_size_limit`).
    public var walSizeLimit: Int
    /// The largest the database file may grow, in bytes (`PRAGMA max_page_count`); an append
    /// that needs more fails with `SQLITE_FULL` and stores nothing. A snapshot is stored even
    /// then, so that compaction can make room. Nil for no limit.
    public var maximumFileBytes: Int?

    /// Settings with the given values; the defaults suit a leader that favours durability.
    public init(
      durability: Durability = .full,
      snapshotPolicy: SnapshotPolicy = SnapshotPolicy(),
      catchUpWindow: UInt64 = 100_000,
      compactsAfterSnapshot: Bool = true,
      checkpointPages: Int = 1000,
      walSizeLimit: Int = 64 << 20,
      maximumFileBytes: Int? = nil
    ) {
      precondition(checkpointPages >= 0 && walSizeLimit >= 0, "journal sizes must be >= 0")
      self.durability = durability
      self.snapshotPolicy = snapshotPolicy
      self.catchUpWindow = catchUpWindow
      self.compactsAfterSnapshot = compactsAfterSnapshot
      self.checkpointPages = checkpointPages
      self.walSizeLimit = walSizeLimit
      self.maximumFileBytes = maximumFileBytes
    }
  }

  /// When a snapshot is due: after this many sequences, or this many patch bytes, since the
  /// last.
  ///
  /// The count is of sequences (actions, one journal row each), not of deltas: a delta of 10
  /// actions counts 10, as it moves ``Journal/lastSequence`` by 10.
  public struct SnapshotPolicy: Sendable, Equatable {
    /// A snapshot is due once the deltas appended since the latest one span this many
    /// sequences (actions).
    public var deltaCount: Int
    /// A snapshot is due once the deltas appended since the latest one hold this many patch
    /// bytes.
    public var patchBytes: Int

    /// A policy with the given limits (both must be positive).
    public init(deltaCount: Int = 10_000, patchBytes: Int = 16 << 20) {
      precondition(deltaCount > 0 && patchBytes > 0, "a snapshot policy needs positive limits")
      self.deltaCount = deltaCount
      self.patchBytes = patchBytes
    }
  }
}
