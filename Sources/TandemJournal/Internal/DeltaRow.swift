import TandemProtocol

/// One `deltas` row as both journals store it: an action's sequence, origin and tag, the patch
/// (empty on every row of a delta but its last) and the row's link in the hash chain
/// (``DeltaChain``). What a backup or a restore copies from one journal to the other, as it is.
struct DeltaRow: Sendable, Equatable {
  var sequence: UInt64
  var action: AppliedAction
  var patch: [UInt8]
  var chain: UInt64
}

/// Checks the rows a copy of a journal carries as they stream past in order, so that a backup
/// or a restore never passes on a history that a leader would refuse: every row follows the one
/// before (no gap) and matches the hash chain from the journal's base, the history does not end
/// inside a delta, the latest snapshot is a delta's boundary, and the rows reach it and the
/// journal's last sequence, as recovery requires.
struct DeltaRowCheck {
  /// The journal read, for messages.
  let location: String
  /// The latest snapshot's sequence, if there is one.
  let snapshot: UInt64?
  /// The journal's last sequence.
  let lastSequence: UInt64
  /// The chain's value at the last row checked (its base before the first).
  private(set) var chain: UInt64
  /// The first and the last row checked.
  private(set) var first: UInt64?
  private(set) var last: UInt64?
  /// The rows after the snapshot, the deltas they close and those deltas' patch bytes.
  private(set) var rowsAfterSnapshot = 0
  private(set) var deltasAfterSnapshot = 0
  private(set) var bytesAfterSnapshot = 0
  private var lastPatchIsEmpty = false
  private var snapshotInsideDelta = false

  /// A check of the rows of a journal whose chain starts at `chainBase`.
  init(location: String, chainBase: UInt64, snapshot: UInt64?, lastSequence: UInt64) {
    self.location = location
    self.snapshot = snapshot
    self.lastSequence = lastSequence
    chain = chainBase
  }

  /// Checks the next row.
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` when it does not follow the last one;
  ///   ``JournalError/corrupt(path:detail:)`` when it does not match the chain.
  mutating func check(_ row: DeltaRow) throws(JournalError) {
    if let last, row.sequence != last + 1 {
      throw .gap(path: location, after: last, next: row.sequence)
    }
    let link = DeltaChain.link(
      previous: chain, sequence: row.sequence, origin: row.action.origin, tag: row.action.tag,
      patch: row.patch)
    guard link == row.chain else {
      throw .corrupt(path: location, detail: DeltaChain.mismatch(at: row.sequence))
    }
    chain = link
    if first == nil { first = row.sequence }
    last = row.sequence
    lastPatchIsEmpty = row.patch.isEmpty
    if row.sequence == snapshot, row.patch.isEmpty { snapshotInsideDelta = true }
    if row.sequence > snapshot ?? 0 {
      rowsAfterSnapshot += 1
      if !row.patch.isEmpty {
        deltasAfterSnapshot += 1
        bytesAfterSnapshot += row.patch.count
      }
    }
  }

  /// Checks what only the whole history shows, once every row was checked.
  func finish() throws(JournalError) {
    guard let snapshot else {
      guard last == nil, lastSequence == 0 else {
        throw .corrupt(
          path: location,
          detail: "it holds deltas up to sequence \(lastSequence) but no snapshot")
      }
      return
    }
    if snapshotInsideDelta {
      throw .corrupt(
        path: location,
        detail: "the latest snapshot, at sequence \(snapshot), falls inside a delta")
    }
    if lastPatchIsEmpty, let last {
      throw .corrupt(
        path: location, detail: "the history ends inside a delta, at sequence \(last)")
    }
    if let first, first > snapshot + 1 {
      throw .gap(path: location, after: snapshot, next: first)
    }
    let reached = max(last ?? snapshot, snapshot)
    guard reached == lastSequence else {
      throw .gap(path: location, after: reached, next: nil)
    }
  }
}
