/// What `tandem journal inspect` shows of a journal, read in one transaction that sees one
/// state of it (a leader may be committing meanwhile): its figures, the schema recorded with its
/// latest snapshot, and its latest actions with the keys that sent them.
///
/// ``Journal/inspect(actions:)`` and ``PostgresJournal/inspect(actions:)`` produce it alike, so
/// one report serves both journals:
///
/// ```swift
/// let reader = try JournalLocation(parsing: "postgres://tandem@db.internal/orders")
///   .openForReading()
/// defer { reader.close() }
/// let inspection = try reader.inspect(actions: 10)
/// print(inspection.stats.lastSequence, inspection.actions.map(\.origin.key))
/// ```
public struct JournalInspection: Sendable, Equatable {
  /// Where the journal is: its path, or its connection string without the password.
  public var location: String
  /// The journal's figures.
  public var stats: JournalStats
  /// The canonical JSON of the `SchemaDescription` recorded with the latest snapshot: nil when
  /// there is no snapshot, empty when it was not recorded (a snapshot stored before format
  /// version 6 of the file).
  public var snapshotSchema: [UInt8]?
  /// The latest actions kept, as many as were asked for at most, oldest first.
  public var actions: [Journal.RecordedAction]

  /// An inspection with the given parts.
  public init(
    location: String, stats: JournalStats, snapshotSchema: [UInt8]?,
    actions: [Journal.RecordedAction]
  ) {
    self.location = location
    self.stats = stats
    self.snapshotSchema = snapshotSchema
    self.actions = actions
  }
}
