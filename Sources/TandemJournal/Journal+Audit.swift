import TandemProtocol

extension Journal {
  /// One action as the journal recorded it: its sequence, origin (with the name of the key
  /// that sent it, empty for the leader's own and without CURVE keys) and tag. The audit trail.
  public struct RecordedAction: Sendable, Equatable {
    public var sequence: UInt64
    public var origin: Origin
    public var tag: String
  }

  /// The latest `count` actions the journal keeps, oldest first.
  public func recentActions(_ count: Int) throws(JournalError) -> [RecordedAction] {
    try withSession { (session) throws(JournalError) -> [RecordedAction] in
      try session.sqlite { () throws(SQLiteError) -> [RecordedAction] in
        let statement = try session.connection.statement(
          "SELECT sequence, client, number, tag, generation, key FROM deltas "
            + "ORDER BY sequence DESC LIMIT ?1")
        return try statement.run { (row: SQLiteStatement) throws(SQLiteError) in
          try row.bind(Int64(max(count, 0)), at: 1)
          var actions: [RecordedAction] = []
          while try row.step() {
            actions.append(
              RecordedAction(
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
  }
}
