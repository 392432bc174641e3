/// A journal opened only to be read, whichever database holds it: what `tandem journal inspect`,
/// `verify` and `backup` need. ``Journal`` (opened with ``Journal/init(readingAt:)``) and
/// ``PostgresJournal`` (opened with ``PostgresJournal/init(readingAt:)``) conform; neither takes
/// the leader's lock or lease, and neither writes, so a leader may be running.
public protocol JournalReader: AnyObject, Sendable {
  /// Where the journal is, for messages: a path, or a connection string without its password.
  var locationDescription: String { get }
  /// The journal's figures, the latest snapshot's schema and the latest `actions` actions, read
  /// in one transaction.
  func inspect(actions: Int) throws(JournalError) -> JournalInspection
  /// A thorough check of the journal in one read transaction; `progress` gets a line before
  /// each check.
  func verify(progress: (String) -> Void) throws(JournalError) -> Journal.Verification
  /// Copies the journal, in one consistent read, into a new SQLite journal file at
  /// `destination` (``Journal/backup(to:)``, ``PostgresJournal/backup(to:)``, which say why the
  /// history restored from it never continues its epoch).
  func backup(to destination: String) throws(JournalError) -> Journal.Backup
  /// Releases the journal (its file, or its connection).
  func close()
}

extension Journal: JournalReader {}
extension PostgresJournal: JournalReader {}

extension JournalLocation {
  /// Opens the existing journal at this location read-only: ``Journal/init(readingAt:)`` or
  /// ``PostgresJournal/init(readingAt:)``.
  ///
  /// - Throws: ``JournalError/notFound(path:)`` when there is no journal there (no file, or a
  ///   database without Tandem's tables), and what those initializers throw.
  public func openForReading() throws(JournalError) -> any JournalReader {
    switch self {
    case .sqlite(let path): return try Journal(readingAt: path)
    case .postgres(let connection): return try PostgresJournal(readingAt: connection)
    }
  }
}
