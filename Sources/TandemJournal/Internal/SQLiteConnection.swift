import CSQLite

/// One open SQLite connection: the only owner of its `sqlite3` handle, which never leaves it.
///
/// Every C call goes through ``check(_:_:)``, which turns a failing result code into an
/// ``SQLiteError`` with SQLite's message and the call's name. The connection is not thread-safe
/// (opened with `SQLITE_OPEN_NOMUTEX`): its owner serializes access.
package final class SQLiteConnection {
  private let handle: OpaquePointer
  /// The database file's path.
  package let path: String
  private var cached: [String: SQLiteStatement] = [:]
  /// For a connection that writes: refuses write transactions once a write to the mapped
  /// shared-memory index has faulted (see ``SharedIndexGuard``).
  private var sharedIndex: SharedIndexGuard?

  /// How to open the file.
  package enum Access {
    /// Read and write; create the file when it does not exist.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Read only (`SQLITE_OPEN_READONLY`).
    case readOnly

    package var flags: Int32 {
      switch self {
      case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      case .readWrite: SQLITE_OPEN_READWRITE
      case .readOnly: SQLITE_OPEN_READONLY
      }
    }
  }

  /// Opens `path` (`sqlite3_open_v2`) with extended result codes on.
  package init(path: String, access: Access) throws(SQLiteError) {
    var opened: OpaquePointer?
    let code = sqlite3_open_v2(path, &opened, access.flags | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let opened else {
      let error = SQLiteError(
        code: code == SQLITE_OK ? SQLITE_CANTOPEN : code, database: opened,
        call: "sqlite3_open_v2(\(path))")
      sqlite3_close_v2(opened)
      throw error
    }
    handle = opened
    self.path = path
    sqlite3_extended_result_codes(opened, 1)
    if access != .readOnly { sharedIndex = SharedIndexGuard(databasePath: path) }
  }

  /// Finalizes the cached statements and closes; `sqlite3_close_v2` waits for any statement
  /// still held elsewhere to be finalized before it frees the connection.
  deinit {
    cached.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Throws unless `code` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE` (see ``sqliteCheck``).
  @discardableResult
  package func check(_ code: Int32, _ call: @autoclosure () -> String) throws(SQLiteError) -> Int32
  {
    try sqliteCheck(code, database: handle, call())
  }

  /// Runs `body` with the raw handle, for the wrapper's own calls; the handle must not escape.
  package func withHandle<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
    try body(handle)
  }

  /// Runs one or more statements without results (`sqlite3_exec`).
  package func execute(_ sql: String) throws(SQLiteError) {
    try check(sqlite3_exec(handle, sql, nil, nil, nil), "sqlite3_exec(\(sql))")
  }

  /// A new prepared statement for `sql`, owned by the caller.
  package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    try SQLiteStatement(connection: self, sql: sql)
  }

  /// The connection's cached statement for `sql`, prepared on first use and reused after.
  /// The cache keeps one statement per distinct text: pass values as parameters, never
  /// interpolated into `sql`.
  package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let statement = cached[sql] { return statement }
    let statement = try prepare(sql)
    cached[sql] = statement
    return statement
  }

  /// The first column of the first row of `sql` as an integer, or nil when there is no row
  /// or the value is NULL; `sql` is cached, so values go in as parameters, not in its text.
  package func integer(
    _ sql: String, binding parameter: UInt64? = nil
  ) throws(SQLiteError) -> Int64? {
    let statement = try statement(sql)
    return try statement.run { (row: SQLiteStatement) throws(SQLiteError) -> Int64? in
      if let parameter { try row.bind(parameter, at: 1) }
      guard try row.step(), !row.isNull(at: 0) else { return nil }
      return row.int64(at: 0)
    }
  }

  /// The first column of the first row of `sql` as text, or nil when there is no row.
  package func text(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try statement(sql)
    return try statement.run { (row: SQLiteStatement) throws(SQLiteError) -> String? in
      guard try row.step() else { return nil }
      return row.text(at: 0)
    }
  }

  /// Limits the database file to `bytes` (`PRAGMA max_page_count`, which SQLite keeps at the
  /// file's size when the file is larger already); nil lifts the limit.
  package func limitFileSize(to bytes: Int?) throws(SQLiteError) {
    guard let bytes else {
      try execute("PRAGMA max_page_count = 4294967294")
      return
    }
    let pageSize = try integer("PRAGMA page_size") ?? 4096
    try execute("PRAGMA max_page_count = \(max(1, Int64(bytes) / pageSize))")
  }

  /// Whether a transaction is open (`sqlite3_get_autocommit` is 0).
  package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// How a transaction begins.
  package enum Begin: String {
    /// `BEGIN IMMEDIATE`: takes the write lock at once, for a transaction that writes.
    case immediate = "BEGIN IMMEDIATE"
    /// `BEGIN DEFERRED`: takes no lock before the first read; in WAL mode every read of the
    /// transaction then sees one snapshot of the database, whatever a writer commits meanwhile.
    case deferred = "BEGIN DEFERRED"
  }

  /// Runs `body` in one transaction, from `begin` to `COMMIT`; when `body` or the commit
  /// fails, rolls back (unless SQLite already did) and rethrows, so nothing of it is stored.
  package func transaction<R>(
    _ begin: Begin = .immediate, _ body: () throws(SQLiteError) -> R
  ) throws(SQLiteError) -> R {
    try transaction(begin, failing: { $0 }, body)
  }

  /// ``transaction(_:_:)`` for a body that throws errors of its own type: `failure` turns a
  /// failing begin or commit into one.
  package func transaction<R, E: Error>(
    _ begin: Begin = .immediate, failing failure: (SQLiteError) -> E,
    _ body: () throws(E) -> R
  ) throws(E) -> R {
    do throws(SQLiteError) {
      if begin == .immediate { try sharedIndex?.checkWritable() }
      try statement(begin.rawValue).run { (begin: SQLiteStatement) throws(SQLiteError) in
        _ = try begin.step()
      }
    } catch {
      throw failure(error)
    }
    do throws(E) {
      let result = try body()
      do throws(SQLiteError) {
        try statement("COMMIT").run { (commit: SQLiteStatement) throws(SQLiteError) in
          _ = try commit.step()
        }
      } catch {
        throw failure(error)
      }
      return result
    } catch {
      rollBack()
      throw error
    }
  }

  /// Rolls back the open transaction, if any; a failing rollback leaves nothing to do.
  private func rollBack() {
    guard isInTransaction else { return }
    _ = try? execute("ROLLBACK")
  }

  /// The number of rows the last statement changed (`sqlite3_changes64`).
  package var changes: Int64 { sqlite3_changes64(handle) }
}
