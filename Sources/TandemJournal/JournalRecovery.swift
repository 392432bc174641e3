import TandemProtocol

/// What a leader needs to restart from its journal: the epoch, the latest snapshot, and the
/// deltas after it in order, to replay onto the snapshot's document.
public struct JournalRecovery: Sendable, Equatable {
  /// The history's epoch.
  public var epoch: Epoch
  /// Whether the epoch was kept at this open or minted anew (followers then resync).
  public var epochContinuity: EpochContinuity
  /// The latest snapshot; nil for a journal that has none yet (a new one), whose leader starts
  /// from its initial state and stores it with `writeSnapshot(sequence: 0, ...)`.
  public var snapshot: JournalSnapshot?
  /// The deltas after the snapshot, gapless and in order, grouped as they were appended (a
  /// delta may apply several actions with one patch): replay their patches onto the
  /// snapshot's document, one per delta.
  public var deltas: [Delta]
  /// The client ledger as of the last commit: the snapshot's ledger with every later change,
  /// rejections included (which no delta records). Set the leader's limits on it.
  public var ledger: ClientLedger

  /// A recovery with the given parts.
  public init(
    epoch: Epoch, epochContinuity: EpochContinuity, snapshot: JournalSnapshot?, deltas: [Delta],
    ledger: ClientLedger
  ) {
    self.epoch = epoch
    self.epochContinuity = epochContinuity
    self.snapshot = snapshot
    self.deltas = deltas
    self.ledger = ledger
  }

  /// The sequence of the recovered state: the last delta's, else the snapshot's, else 0.
  public var sequence: UInt64 {
    deltas.last?.sequence ?? snapshot?.sequence ?? 0
  }
}
