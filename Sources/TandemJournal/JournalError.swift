import TandemProtocol

/// Why the journal refused to open, or an operation on it failed; each message says what to do.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Another process (or another ``Journal`` in this one) holds the journal: one leader per file.
  case locked(path: String, holder: String?)
  /// The file is not a Tandem journal (another SQLite database, or no database at all).
  case notAJournal(path: String, detail: String)
  /// The file is a Tandem journal in a format version this build does not read.
  case incompatibleVersion(path: String, found: Int64, supported: Int64)
  /// The file is damaged: SQLite found it corrupt, or the journal's own records contradict
  /// each other.
  case corrupt(path: String, detail: String)
  /// The deltas are not gapless where recovery needs them: after `sequence` comes `next`.
  case gap(path: String, after: UInt64, next: UInt64?)
  /// An append or snapshot does not continue the journal's history.
  case sequenceMismatch(expected: UInt64, got: UInt64)
  /// Deltas were appended before the base snapshot every history starts with.
  case noBaseSnapshot(path: String)
  /// The file does not exist (when opening for reading).
  case notFound(path: String)
  /// A SQLite call failed (I/O error, disk full, read-only file...); nothing of the operation
  /// was stored.
  case sqlite(path: String, SQLiteError)
  /// A system call on the journal's lock file failed.
  case system(path: String, call: String, errno: Int32)
  /// A PostgreSQL statement of the shared journal or its lease failed; nothing of the
  /// operation was stored. `location` is the connection string without its password.
  case postgres(location: String, PostgresError)
  /// This leader no longer holds the shared journal's lease with `fencingEpoch`: another took it
  /// (`current`, as the database saw it), or it ran out. Nothing of the refused operation was
  /// stored.
  case fenced(holder: String, fencingEpoch: UInt64, current: LeaseRecord?)
  /// ``PostgresJournal/restore(from:into:)`` will not write into the database at `location`
  /// (its connection string without the password): it holds a journal already, or a leader
  /// holds its lease, as `reason` says. Nothing was written.
  case restoreRefused(location: String, reason: String)

  /// What went wrong and what to do about it, in one paragraph.
  public var description: String {
    switch self {
    case .locked(let path, let holder):
      let who = holder.map { " (held by process \($0))" } ?? ""
      return "journal \(path) is in use by another leader\(who): one leader per journal. "
        + "Stop that leader, or give this one a journal of its own."
    case .notAJournal(let path, let detail):
      return "\(path) is not a Tandem journal (\(detail)). The leader will not start over it: "
        + "check the --db path, or move the file aside to start a new history."
    case .incompatibleVersion(let path, let found, let supported):
      let advice =
        found > supported
        ? "it was written by a newer Tandem: run that version, or move the file aside"
        : found >= 1
          ? "a leader of this build upgrades it in place when it opens it"
          : "move it aside (or export its state with the version that wrote it)"
      return "journal \(path) has format version \(found), this build reads version "
        + "\(supported): \(advice). The leader will not start over it."
    case .corrupt(let path, let detail):
      return "journal \(path) is corrupt (\(detail)). The leader will not start over it. Keep "
        + "the file, which may hold acknowledged history that is intact: run `tandem journal "
        + "verify --db \(path)` to see what is damaged and from which sequence, then restore "
        + "the journal from a backup, or keep what precedes the damage with `tandem journal "
        + "salvage --db \(path) --to NEW` (followers will resync)."
    case .gap(let path, let after, let next):
      let missing =
        next.map { next in
          next > after + 1
            ? "the delta after sequence \(after) is \(next): \(after + 1)...\(next - 1) missing"
            : "the delta after sequence \(after) starts at \(next)"
        } ?? "the deltas end at sequence \(after), before the journal's last sequence"
      return "journal \(path) has a gap in its history (\(missing)). The leader will not "
        + "recover from it. Keep the file, which holds the history before the gap: run "
        + "`tandem journal verify --db \(path)`, then restore the journal from a backup, or "
        + "keep the history before the gap with `tandem journal salvage --db \(path) --to NEW` "
        + "(followers will resync)."
    case .sequenceMismatch(let expected, let got):
      return "the journal expects sequence \(expected) next, got \(got)"
    case .noBaseSnapshot(let path):
      return "journal \(path) has no snapshot yet: store the initial state with "
        + "writeSnapshot(sequence: 0, ...) before appending deltas"
    case .notFound(let path):
      return "no journal at \(path)"
    case .sqlite(let path, let error):
      guard let fault = FileSystemFault(error) else { return "journal \(path): \(error)" }
      return "journal \(path): \(fault.advice) (\(error))"
    case .system(let path, let call, let errno):
      guard let fault = FileSystemFault(errno: errno) else {
        return "journal \(path): \(call) failed with errno \(errno)"
      }
      return "journal \(path): \(fault.advice) (\(call) failed with errno \(errno))"
    case .postgres(let location, let error):
      let advice =
        error.isConnectionFailure
        ? "check that the database is up and reachable, then retry; nothing was stored"
        : "nothing of the operation was stored"
      return "PostgreSQL journal \(location): \(error). \(advice)."
    case .fenced(let holder, let fencingEpoch, let current):
      let now = current.map { "the lease is now \($0)" } ?? "nobody holds the lease"
      return "leader \(holder) lost the journal's lease (its fencing epoch \(fencingEpoch)): "
        + "\(now). Its write was refused and nothing of it stored; it must stop acting as leader "
        + "(followers move to the lease's holder)."
    case .restoreRefused(let location, let reason):
      return "restore into PostgreSQL journal \(location) refused: \(reason). Nothing was "
        + "written."
    }
  }

  /// The failure of the world behind this error (the disk, the file system, permissions), if it
  /// is one rather than damage or a refusal.
  public var fileSystemFault: FileSystemFault? {
    switch self {
    case .sqlite(_, let error): FileSystemFault(error)
    case .system(_, _, let errno): FileSystemFault(errno: errno)
    default: nil
    }
  }

  /// The SQLite failure `error` on the journal at `path`: ``corrupt(path:detail:)`` when SQLite
  /// found the file damaged and the file system reads the file back without error,
  /// ``sqlite(path:_:)`` otherwise. SQLite takes pages a failing disk no longer returns for
  /// damage ("database disk image is malformed"), so a corruption is checked against the disk
  /// before it is reported as one: a read the file system refuses (`EIO` after a shutdown, say)
  /// makes it a failure of the world, with that error number.
  package init(path: String, _ error: SQLiteError) {
    guard error.isCorruption else {
      self = .sqlite(path: path, error)
      return
    }
    if let number = fileSystemError(readingAt: path), FileSystemFault(errno: number) != nil {
      var failure = error
      failure.systemErrno = number
      self = .sqlite(path: path, failure)
      return
    }
    self = .corrupt(path: path, detail: "\(error)")
  }
}
