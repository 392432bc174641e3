extension Journal {
  /// The deltas from `sequence` to the last one, for a follower's catch-up; an empty array
  /// when `sequence` is just past the last, nil when compaction removed some of them (or
  /// `sequence` is beyond the history): the follower then needs a snapshot.
  public func deltas(from sequence: UInt64) throws(JournalError) -> [Delta]? {
    try withSession { (session) throws(JournalError) -> [Delta]? in
      let last = session.lastSequence
      guard sequence >= 1, sequence <= last + 1 else { return nil }
      if sequence == last + 1 { return [] }
      let oldest = try session.sqlite { () throws(SQLiteError) -> Int64? in
        try session.connection.integer("SELECT min(sequence) FROM deltas")
      }
      guard let oldest, sequence >= UInt64(bitPattern: oldest) else { return nil }
      var deltas: [Delta] = []
      deltas.reserveCapacity(Int(last - sequence + 1))
      var expected = sequence
      let path = session.path
      try session.forEachDelta(from: sequence) { (delta) throws(JournalError) -> Bool in
        guard delta.sequence == expected else {
          throw .gap(path: path, after: expected - 1, next: delta.sequence)
        }
        expected += 1
        deltas.append(delta)
        return true
      }
      return deltas
    }
  }
}
