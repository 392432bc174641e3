import CSQLite

/// The one check every SQLite call goes through: returns `code` when it is `SQLITE_OK`,
/// `SQLITE_ROW` or `SQLITE_DONE`, and otherwise throws an ``SQLiteError`` with the code,
/// the connection's message and the name of the call.
@discardableResult
package func sqliteCheck(
  _ code: Int32, database: OpaquePointer?, _ call: @autoclosure () -> String
) throws(SQLiteError) -> Int32 {
  guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
    throw SQLiteError(code: code, database: database, call: call())
  }
  return code
}

extension SQLiteError {
  /// The error for `code`, with the message of `database` (or SQLite's text for the code).
  package init(code: Int32, database: OpaquePointer?, call: String) {
    var message = database.map { String(cString: sqlite3_errmsg($0)) } ?? ""
    if message.isEmpty || message == "not an error" {
      message = String(cString: sqlite3_errstr(code))
    }
    self.init(
      code: code, message: message, call: call,
      // SQLite records the error number for these two codes only; it is stale for others.
      systemErrno: code & 0xff == SQLITE_IOERR || code & 0xff == SQLITE_CANTOPEN
        ? database.map { sqlite3_system_errno($0) } ?? 0 : 0)
  }
}
