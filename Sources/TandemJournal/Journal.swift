import Synchronization
import TandemProtocol

/// A leader's durable history in one SQLite file (WAL mode): the deltas it applied, the client
/// ledger as of the last commit, snapshots of the state, and the epoch.
///
/// The journal deals only in bytes: it never decodes a patch or a document. A leader opens it at
/// start, recovers, replays, then appends each committed batch in one transaction:
///
/// ```swift
/// let journal = try Journal(path: "leader.journal", configuration: .init(durability: .full))
/// let recovery = try journal.recover()
/// if recovery.snapshot == nil {
///   try journal.writeSnapshot(sequence: 0, document: initial, ledger: ClientLedger())
/// }
/// // ... replay recovery.deltas onto the snapshot's document, then for each batch:
/// let commit = try journal.append(batch, ledger: changedEntries)
/// if commit.snapshotDue { try journal.writeSnapshot(...) }
/// ```
///
/// One leader per journal: opening a file that another ``Journal`` holds, in this process or
/// another, throws ``JournalError/locked(path:holder:)``. A file that is not a journal, is
/// corrupt or of another format version is refused with a message saying what to do; the
/// journal never starts empty over existing history. Readers (`tandem journal inspect`) open
/// with ``init(readingAt:)`` while a leader runs.
///
/// `Journal` is thread-safe: calls are serialized by a mutex.
public final class Journal: Sendable {
  /// The journal file's path.
  public let path: String
  /// The settings it was opened with (for a read-only journal, the defaults).
  public let configuration: Configuration
  /// Whether this journal was opened with ``init(readingAt:)``.
  public let isReadOnly: Bool
  private let session: Mutex<JournalSession?>

  /// Opens the journal at `path` for a leader, creating it when no file (or an empty, 0-byte
  /// one) is there, and takes the one-leader lock (`<path>-lock`). Any other file that is not a
  /// journal, an SQLite database without tables included, is refused.
  ///
  /// The open checks the file's format and writes nothing to an existing journal. The leader
  /// session starts with ``recover()``, or with the first write if that comes first: in one
  /// transaction, it checks the history as ``recover()`` does and marks the session open in the
  /// file, so a journal whose history does not validate is refused and left as it was. (A
  /// version 1 journal starts at the open, which upgrades it in that transaction.)
  ///
  /// - Precondition: `configuration.durability` is not ``Durability/off``, which keeps no file.
  /// - Throws: ``JournalError/locked(path:holder:)`` when another leader has it;
  ///   ``JournalError/notAJournal(path:detail:)``, ``JournalError/incompatibleVersion(path:found:supported:)``
  ///   or ``JournalError/corrupt(path:detail:)`` for a file it will not use; for a version 1
  ///   journal, also what ``recover()`` throws.
  public init(path: String, configuration: Configuration = Configuration()) throws(JournalError) {
    self.path = path
    self.configuration = configuration
    isReadOnly = false
    session = Mutex(try JournalSession.openForWriting(path: path, configuration: configuration))
  }

  /// Opens the existing journal at `path` read-only, without the leader lock, to inspect or
  /// verify it (a leader may be running on it).
  public init(readingAt path: String) throws(JournalError) {
    self.path = path
    configuration = Configuration()
    isReadOnly = true
    session = Mutex(try JournalSession.openForReading(path: path))
  }

  deinit {
    session.withLock { $0?.closeCleanly() }
  }

  /// Closes the journal cleanly: marks the session closed, checkpoints the log into the file and
  /// releases the lock. Using the journal afterwards is a programmer error.
  public func close() {
    session.withLock { open in
      open?.closeCleanly()
      open = nil
    }
  }

  /// The history's epoch: the one stored in the file, or one this open minted (see
  /// ``EpochContinuity``), which is stored when the leader session starts.
  public var epoch: Epoch {
    withSession { $0.epoch }
  }

  /// The sequence of the newest delta or snapshot stored (0 for a new journal).
  public var lastSequence: UInt64 {
    withSession { $0.lastSequence }
  }

  /// Mints and persists a new random epoch, for a leader that starts a new history.
  @discardableResult
  public func startNewEpoch() throws(JournalError) -> Epoch {
    try withSession { (session) throws(JournalError) -> Epoch in
      try session.prepareToWrite()
      let epoch = Epoch.random()
      try session.sqlite { () throws(SQLiteError) in
        try session.connection.transaction { () throws(SQLiteError) in
          try session.setMeta(JournalSchema.epochKey, Int64(bitPattern: epoch.rawValue))
        }
      }
      session.epoch = epoch
      session.epochContinuity = .minted(reason: "startNewEpoch() was called")
      try session.writeMark()
      return epoch
    }
  }

  /// Runs `body` with the open session under the mutex.
  package func withSession<R: Sendable, E: Error>(
    _ body: (JournalSession) throws(E) -> R
  ) throws(E) -> R {
    try session.withLock { (open: inout JournalSession?) throws(E) -> R in
      guard let session = open else {
        preconditionFailure("Journal \(path) used after close()")
      }
      return try body(session)
    }
  }
}
