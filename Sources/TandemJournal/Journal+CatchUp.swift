import TandemProtocol

extension Journal {
  /// The deltas from `sequence` to the last one, for a follower's catch-up, grouped as they
  /// were appended; an empty array when `sequence` is just past the last.
  ///
  /// Returns nil, and the follower then needs a snapshot, when the journal cannot serve
  /// `sequence` as the first sequence of a delta: compaction removed it, it is beyond the
  /// history, or it falls inside a delta of several actions (whose one patch applies only to
  /// the state before that delta's first action); or when the deltas hold more than
  /// `maximumBytes` patch bytes (it stops reading there).
  ///
  /// `sequence` starts a delta when the row before it closes one (carries a patch), when it is
  /// 1, or when it is the oldest row kept: compaction only ever removes whole deltas.
  ///
  /// - Throws: ``JournalError/gap(path:after:next:)`` when the stored rows skip a sequence;
  ///   ``JournalError/corrupt(path:detail:)`` when the history ends inside a delta.
  public func deltas(
    from sequence: UInt64, maximumBytes: Int = .max
  ) throws(JournalError) -> [Delta]? {
    try withSession { (session) throws(JournalError) -> [Delta]? in
      let last = session.lastSequence
      guard sequence >= 1, sequence <= last + 1 else { return nil }
      if sequence == last + 1 { return [] }
      let (startsADelta, chain) = try session.sqlite {
        () throws(SQLiteError) -> (Bool, UInt64?) in
        (try session.startsADelta(sequence), try session.chainBefore(sequence))
      }
      guard startsADelta else { return nil }
      var deltas: [Delta] = []
      var expected = sequence
      var bytes = 0
      let path = session.path
      try session.forEachDelta(from: sequence, chain: chain) {
        (delta) throws(JournalError) -> Bool in
        guard delta.firstSequence == expected else {
          throw .gap(path: path, after: expected - 1, next: delta.firstSequence)
        }
        bytes += delta.patch.count
        guard bytes <= maximumBytes else { return false }
        expected = delta.sequence + 1
        deltas.append(delta)
        return true
      }
      guard bytes <= maximumBytes else { return nil }
      guard expected == last + 1 else {
        throw .gap(path: path, after: expected - 1, next: nil)
      }
      return deltas
    }
  }
}

extension JournalSession {
  /// Whether the row of `sequence` is stored and is the first of a delta: the row before it
  /// closes a delta (its patch is not empty), or there is no row before it because `sequence`
  /// is 1 or the oldest kept (compaction keeps whole deltas only).
  package func startsADelta(_ sequence: UInt64) throws(SQLiteError) -> Bool {
    guard let first = try self.sequence("SELECT min(sequence) FROM deltas", in: "deltas") else {
      return false
    }
    guard sequence >= first else { return false }
    if sequence == first { return true }
    guard let previousPatch = try patchLength(at: sequence - 1) else { return false }
    return previousPatch > 0
  }
}
