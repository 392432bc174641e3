import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Journal {
  /// What ``backup(to:)`` copied.
  public struct Backup: Sendable, Equatable {
    /// The copy's path.
    public var path: String
    /// The history's epoch in the copy.
    public var epoch: Epoch
    /// The last sequence the copy holds.
    public var sequence: UInt64
    /// The copy's size in bytes.
    public var bytes: Int
  }

  /// Copies the journal, while a leader may be committing to it, into a new file at
  /// `destination` with SQLite's online backup API: the copy is one consistent state of the
  /// history (the latest commit the copy's read saw), a journal of its own that
  /// ``init(readingAt:)`` and `tandem journal verify` read.
  ///
  /// The copy has no high-water mark. Restored in the journal's place (the leader stopped, the
  /// copy moved over the journal file, its `-wal` and `-shm` removed), it is judged against the
  /// mark the journal left: a leader starting on it mints a new epoch and says how many
  /// sequences the copy lacks when the journal went on after the backup; restored where there
  /// is no mark, it mints a new epoch too, as nothing shows it complete. Either way followers
  /// resync from it, and nothing they hold beyond it survives as a state the leader lacks.
  ///
  /// - Throws: ``JournalError/system(path:call:errno:)`` with `EEXIST` when a file is at
  ///   `destination` (a backup never overwrites); ``JournalError/sqlite(path:_:)`` when a page
  ///   cannot be read or written (the partial copy is removed).
  public func backup(to destination: String) throws(JournalError) -> Backup {
    try withSession { (session) throws(JournalError) -> Backup in
      let created = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard created >= 0 else {
        throw .system(
          path: destination, call: "open (a backup never overwrites a file)", errno: errno)
      }
      #if canImport(Glibc)
        Glibc.close(created)
      #else
        Darwin.close(created)
      #endif
      do throws(SQLiteError) {
        let target = try SQLiteConnection(path: destination, access: .readWrite)
        try session.connection.backup(into: target)
      } catch {
        _ = unlink(destination)
        throw JournalError(path: destination, error)
      }
      let copy = try JournalSession.openForReading(path: destination)
      return Backup(
        path: destination, epoch: copy.epoch, sequence: copy.lastSequence,
        bytes: fileSize(destination))
    }
  }
}
