import TandemProtocol

extension Journal {
  /// Reads back what a leader restarts from: the epoch, the latest snapshot, the deltas after
  /// it, grouped as they were appended (checked gapless from the snapshot's sequence + 1 to the
  /// last), and the current ledger.
  ///
  /// On a journal opened for writing, the first call (or the first write, whichever comes
  /// first) also starts the leader session: it makes these checks and marks the session open in
  /// the file in one transaction, so a journal it refuses is left as it was.
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` naming where the deltas are not gapless;
  ///   ``JournalError/corrupt(path:detail:)`` when deltas exist without any snapshot, the
  ///   snapshot falls inside a delta, the history ends inside a delta (its last rows have empty
  ///   patches and no row closes them), or SQLite finds the file damaged.
  public func recover() throws(JournalError) -> JournalRecovery {
    try withSession { (session) throws(JournalError) -> JournalRecovery in
      if let recovery = try session.startIfNeeded() { return recovery }
      return try session.readRecovery()
    }
  }
}

extension JournalSession {
  /// The recovery ``Journal/recover()`` returns, with every check it makes.
  package func readRecovery() throws(JournalError) -> JournalRecovery {
    let (snapshot, ledger) = try sqlite {
      () throws(SQLiteError) -> (JournalSnapshot?, ClientLedger) in
      (try latestSnapshot(), try ledgerEntries())
    }
    let base = snapshot?.sequence ?? 0
    if snapshot == nil, lastSequence > 0 {
      throw .corrupt(
        path: path, detail: "it holds deltas up to sequence \(lastSequence) but no snapshot")
    }
    let insideDelta = try sqlite { () throws(SQLiteError) -> String? in
      try snapshotInsideDelta(base)
    }
    if let insideDelta { throw .corrupt(path: path, detail: insideDelta) }
    var deltas: [Delta] = []
    var previous = base
    var bytes = 0
    let path = path
    // Every row replayed is checked against the hash chain, from the snapshot's row on.
    let chain = try sqlite { () throws(SQLiteError) -> UInt64? in try chainBefore(base + 1) }
    try forEachDelta(from: base + 1, chain: chain) { (delta) throws(JournalError) -> Bool in
      guard delta.firstSequence == previous + 1 else {
        throw .gap(path: path, after: previous, next: delta.firstSequence)
      }
      previous = delta.sequence
      bytes += delta.patch.count
      deltas.append(delta)
      return true
    }
    guard previous == lastSequence else {
      throw .gap(path: path, after: previous, next: nil)
    }
    deltasSinceSnapshot = Int(previous - base)
    bytesSinceSnapshot = bytes
    return JournalRecovery(
      epoch: epoch, epochContinuity: epochContinuity, snapshot: snapshot, deltas: deltas,
      ledger: ledger)
  }
}
