/// A failed SQLite call: its result code, SQLite's message and the call that failed.
///
/// ```swift
/// catch let error as SQLiteError where error.primaryCode == 13 {  // SQLITE_FULL
///   print(error)  // "sqlite3_step(INSERT INTO deltas ...): database or disk is full (code 13)"
/// }
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY` rather than `SQLITE_CONSTRAINT`).
  public var code: Int32
  /// SQLite's message for the failure (`sqlite3_errmsg`, or `sqlite3_errstr` without one).
  public var message: String
  /// The C function that failed, with the SQL it ran where there was one.
  public var call: String
  /// The operating system's error number behind the failure: `sqlite3_system_errno` for an
  /// `SQLITE_IOERR` or `SQLITE_CANTOPEN` failure (SQLite records it for those only), or the
  /// error of a read of the file the journal made to check a reported corruption; else 0.
  public var systemErrno: Int32

  /// An error with the given code, message, call and system error number.
  public init(code: Int32, message: String, call: String, systemErrno: Int32 = 0) {
    self.code = code
    self.message = message
    self.call = call
    self.systemErrno = systemErrno
  }

  /// The primary result code: the low 8 bits of ``code`` (`SQLITE_CORRUPT` is 11,
  /// `SQLITE_FULL` 13, `SQLITE_NOTADB` 26, `SQLITE_READONLY` 8, `SQLITE_BUSY` 5).
  public var primaryCode: Int32 { code & 0xff }

  /// Whether SQLite found the file damaged or not a database at all (and the file system
  /// reported no error behind it; see ``JournalError``).
  public var isCorruption: Bool { (primaryCode == 11 || primaryCode == 26) && systemErrno == 0 }

  /// The call, SQLite's message, the code and the system error, if any.
  public var description: String {
    let system = systemErrno == 0 ? "" : ", errno \(systemErrno)"
    return "\(call): \(message) (code \(code)\(system))"
  }
}

extension SQLiteError {
  /// Damage the journal's own checks find in rows SQLite reads without complaint, reported as
  /// `SQLITE_CORRUPT` so that every caller treats it as a corrupt file.
  package static func corruptJournal(_ message: String) -> SQLiteError {
    SQLiteError(code: 11, message: message, call: "reading the journal")
  }
}
