import TandemProtocol

extension Journal {
  /// One action as the journal recorded it: its sequence, origin (with the name of the key
  /// that sent it, empty for the leader's own and without CURVE keys) and tag. The audit trail.
  public struct RecordedAction: Sendable, Equatable {
    public var sequence: UInt64
    public var origin: Origin
    public var tag: String

    /// The action at `sequence` from `origin`, of type `tag`.
    public init(sequence: UInt64, origin: Origin, tag: String) {
      self.sequence = sequence
      self.origin = origin
      self.tag = tag
    }
  }

  /// The latest `count` actions the journal keeps, oldest first.
  public func recentActions(_ count: Int) throws(JournalError) -> [RecordedAction] {
    try withSession { (session) throws(JournalError) -> [RecordedAction] in
      try session.sqlite { () throws(SQLiteError) -> [RecordedAction] in
        try session.recentActions(count)
      }
    }
  }

  /// What `tandem journal inspect` shows: the figures (``stats()``), the schema recorded with
  /// the latest snapshot and the latest `actions` actions (``recentActions(_:)``), read in one
  /// read transaction, which sees one state of the file whatever a leader commits meanwhile.
  public func inspect(actions: Int) throws(JournalError) -> JournalInspection {
    try withSession { (session) throws(JournalError) -> JournalInspection in
      try session.sqlite { () throws(SQLiteError) -> JournalInspection in
        try session.connection.transaction(.deferred) {
          () throws(SQLiteError) -> JournalInspection in
          // The counters as this transaction sees the file (a leader may have gone on).
          if isReadOnly { try session.reloadCounters() }
          let schema = try session.connection.statement(
            "SELECT schema FROM snapshots ORDER BY sequence DESC LIMIT 1"
          ).run { (row: SQLiteStatement) throws(SQLiteError) -> [UInt8]? in
            try row.step() ? row.blob(at: 0) : nil
          }
          return JournalInspection(
            location: path, stats: try session.stats(), snapshotSchema: schema,
            actions: try session.recentActions(actions))
        }
      }
    }
  }
}

extension JournalSession {
  /// The latest `count` actions the journal keeps, oldest first.
  package func recentActions(_ count: Int) throws(SQLiteError) -> [Journal.RecordedAction] {
    let statement = try connection.statement(
      "SELECT sequence, client, number, tag, generation, key FROM deltas "
        + "ORDER BY sequence DESC LIMIT ?1")
    return try statement.run { (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(Int64(max(count, 0)), at: 1)
      var actions: [Journal.RecordedAction] = []
      while try row.step() {
        actions.append(
          Journal.RecordedAction(
            sequence: row.uint64(at: 0),
            origin: Origin(
              client: row.text(at: 1), number: row.uint64(at: 2),
              generation: row.uint64(at: 4), key: row.text(at: 5)),
            tag: row.text(at: 3)))
      }
      return actions.reversed()
    }
  }
}
