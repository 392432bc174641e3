#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the world around the journal rather than damage in it: the disk, the file
/// system or the file's permissions. The journal may well be intact; the advice is to fix the
/// cause, never to discard history.
///
/// ```swift
/// if case .sqlite(_, let error) = journalError, let fault = FileSystemFault(error) {
///   print(fault.advice)  // "the file system reports I/O errors: the journal may be intact..."
/// }
/// ```
public enum FileSystemFault: String, Sendable, Equatable, CaseIterable {
  /// The device failed a read or a write (`EIO`, `SQLITE_IOERR`).
  case ioError = "io-error"
  /// No space left (`ENOSPC`, `EDQUOT`, `SQLITE_FULL`), or the journal reached its size limit.
  case full
  /// The file system is mounted read-only (`EROFS`, `SQLITE_READONLY`).
  case readOnly = "read-only"
  /// The leader's user may not read or write the file or its directory (`EACCES`, `EPERM`).
  case permission
  /// The journal file was removed or renamed while open (`ENOENT`,
  /// `SQLITE_READONLY_DBMOVED`).
  case vanished

  /// The fault behind a system call's error number, if it is one of the world.
  public init?(errno number: Int32) {
    switch number {
    case EIO, ENXIO, ENODEV: self = .ioError
    case ENOSPC, EDQUOT, EFBIG: self = .full
    case EROFS: self = .readOnly
    case EACCES, EPERM: self = .permission
    case ENOENT, ESTALE: self = .vanished
    default: return nil
    }
  }

  /// The fault behind a failed SQLite call, if it is one of the world: by the system error
  /// number when SQLite recorded one, else by the result code.
  public init?(_ error: SQLiteError) {
    if error.systemErrno != 0, let fault = FileSystemFault(errno: error.systemErrno) {
      self = fault
      return
    }
    switch error.primaryCode {
    case 10: self = .ioError  // SQLITE_IOERR
    case 13: self = .full  // SQLITE_FULL
    case 8: self = error.code == 8 | (4 << 8) ? .vanished : .readOnly  // SQLITE_READONLY(_DBMOVED)
    case 3, 23: self = .permission  // SQLITE_PERM, SQLITE_AUTH
    default: return nil
    }
  }

  /// What the fault means and what the operator does about it.
  public var advice: String {
    switch self {
    case .ioError:
      "the file system reports I/O errors: the journal may be intact; fix the disk, then "
        + "restart the leader (`tandem journal verify` tells whether the journal is sound)"
    case .full:
      "the disk is full (or the journal reached its size limit): nothing acknowledged is lost; "
        + "free space, and commits go through again"
    case .readOnly:
      "the file system is read-only: the journal may be intact; remount it read-write, then "
        + "restart the leader"
    case .permission:
      "permission denied: the leader's user cannot read or write the journal, its files or "
        + "its directory; fix the owner, the mode or the attributes (`lsattr` shows an "
        + "immutable or append-only file, `chattr -i` clears it), then restart the leader"
    case .vanished:
      "the journal file was removed or renamed while the leader ran: stop the leader, put the "
        + "file back at its path, then restart (the leader mints a new epoch if history is "
        + "missing)"
    }
  }
}
