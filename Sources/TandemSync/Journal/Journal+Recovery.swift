extension Journal {
  /// Reads back what a leader restarts from: the epoch, the latest snapshot, the deltas after
  /// it, grouped as they were appended (checked gapless from the snapshot's sequence + 1 to the
  /// last), and the current ledger.
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` naming where the deltas are not gapless;
  ///   ``JournalError/corrupt(path:detail:)`` when deltas exist without any snapshot, the
  ///   snapshot falls inside a delta, the history ends inside a delta (its last rows have empty
  ///   patches and no row closes them), or SQLite finds the file damaged.
  public func recover() throws(JournalError) -> JournalRecovery {
    try withSession { (session) throws(JournalError) -> JournalRecovery in
      let (snapshot, ledger) = try session.sqlite {
        () throws(SQLiteError) -> (JournalSnapshot?, ClientLedger) in
        (try session.latestSnapshot(), try session.ledgerEntries())
      }
      let base = snapshot?.sequence ?? 0
      if snapshot == nil, session.lastSequence > 0 {
        throw .corrupt(
          path: session.path,
          detail: "it holds deltas up to sequence \(session.lastSequence) but no snapshot")
      }
      let insideDelta = try session.sqlite { () throws(SQLiteError) -> String? in
        try session.snapshotInsideDelta(base)
      }
      if let insideDelta { throw .corrupt(path: session.path, detail: insideDelta) }
      var deltas: [Delta] = []
      var previous = base
      var bytes = 0
      let path = session.path
      try session.forEachDelta(from: base + 1) { (delta) throws(JournalError) -> Bool in
        guard delta.firstSequence == previous + 1 else {
          throw .gap(path: path, after: previous, next: delta.firstSequence)
        }
        previous = delta.sequence
        bytes += delta.patch.count
        deltas.append(delta)
        return true
      }
      guard previous == session.lastSequence else {
        throw .gap(path: path, after: previous, next: nil)
      }
      session.deltasSinceSnapshot = Int(previous - base)
      session.bytesSinceSnapshot = bytes
      return JournalRecovery(
        epoch: session.epoch, epochContinuity: session.epochContinuity, snapshot: snapshot,
        deltas: deltas, ledger: ledger)
    }
  }
}
