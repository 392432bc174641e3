import StatePatch
import TandemProtocol

/// What a leader needs of its journal, whichever database holds it: recovery, group commit of
/// each batch, snapshots, catch-up reads. ``Journal`` (an SQLite file) and ``PostgresJournal``
/// (a database leaders share) conform; ``JournalLocation/open(configuration:fencing:)`` opens
/// the one a location names.
///
/// Every method has the meaning ``Journal``'s documents; ``PostgresJournal`` adds fencing to
/// the writes (``JournalError/fenced(holder:fencingEpoch:current:)``) and has no lost tail to
/// detect (its commits are durable when they return).
public protocol JournalStore: AnyObject, Sendable {
  /// The settings the journal was opened with.
  var configuration: Journal.Configuration { get }
  /// Where the journal is, for messages: a path, or a connection string without its password.
  var locationDescription: String { get }
  /// The sequence of the latest snapshot stored, if known; nil when there is none or it cannot
  /// be read now.
  var latestSnapshotSequence: UInt64? { get }

  /// The history to start from: the latest snapshot, the deltas after it, the ledger, the epoch.
  func recover() throws(JournalError) -> JournalRecovery
  /// Stores one committed batch (deltas, changed ledger entries, forgotten clients) in one
  /// transaction; nothing of it when it throws.
  @discardableResult
  func append(
    _ deltas: [Delta], ledger: [String: ClientLedger.Entry], forgetting: [String],
    forgottenThrough: UInt64
  ) throws(JournalError) -> Journal.Commit
  /// Stores a snapshot of the state at the last sequence with the whole ledger.
  func writeSnapshot(
    sequence: UInt64, document: [UInt8], ledger: ClientLedger, schema: [UInt8]
  ) throws(JournalError)
  /// The deltas from `sequence` on, of at most `maximumBytes` of patches; nil when the journal
  /// no longer (or never) holds that sequence as the start of a delta.
  func deltas(from sequence: UInt64, maximumBytes: Int) throws(JournalError) -> [Delta]?
  /// Releases the journal (its lock, its connection).
  func close()
}

extension Journal: JournalStore {
  /// The journal's path.
  public var locationDescription: String { path }
  /// The sequence of the latest snapshot stored, if any.
  public var latestSnapshotSequence: UInt64? { snapshotSequence }
}

extension PostgresJournal: JournalStore {
  /// The connection string without its password.
  public var locationDescription: String { location }
  /// The sequence of the latest snapshot stored; nil when there is none or the database cannot
  /// be reached now.
  public var latestSnapshotSequence: UInt64? {
    (try? read { (connection) throws(JournalError) in try snapshotSequence(connection) }) ?? nil
  }

  /// Closes the connection; a later call reconnects.
  public func close() { slot.close() }
}

extension JournalLocation {
  /// Opens the journal at this location for a leader: ``Journal/init(path:configuration:)``
  /// or ``PostgresJournal/init(connection:configuration:fencing:)`` (with `fencing`, the lease
  /// a leader writes under; ignored for SQLite, whose file lock keeps a second leader out).
  public func open(
    configuration: Journal.Configuration, fencing: PostgresJournal.Fencing? = nil
  ) throws(JournalError) -> any JournalStore {
    switch self {
    case .sqlite(let path): return try Journal(path: path, configuration: configuration)
    case .postgres(let connection):
      return try PostgresJournal(
        connection: connection, configuration: configuration, fencing: fencing)
    }
  }
}
