import CSQLite

extension SQLiteConnection {
  /// Copies this connection's main database into `destination`'s with SQLite's online backup
  /// API (`sqlite3_backup_init`, `_step(-1)`, `_finish`): every page in one step, so the copy is
  /// one consistent state of the database, whatever a writer in another connection or process
  /// commits meanwhile (in WAL mode the copy's read does not hold the writer up). Retries while
  /// the source is busy or locked, for up to `busyRetries` short waits.
  package func backup(
    into destination: SQLiteConnection, busyRetries: Int = 500
  ) throws(SQLiteError) {
    try destination.withHandle { (target) throws(SQLiteError) in
      try withHandle { (source) throws(SQLiteError) in
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
          throw SQLiteError(
            code: sqlite3_errcode(target), database: target, call: "sqlite3_backup_init")
        }
        var code = SQLITE_OK
        var retries = 0
        repeat {
          code = sqlite3_backup_step(backup, -1)
          if code == SQLITE_BUSY || code == SQLITE_LOCKED {
            retries += 1
            sqlite3_sleep(10)
          }
        } while (code == SQLITE_BUSY || code == SQLITE_LOCKED) && retries < busyRetries
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
          throw SQLiteError(code: code, database: target, call: "sqlite3_backup_step")
        }
        try sqliteCheck(finished, database: target, "sqlite3_backup_finish")
      }
    }
  }
}
