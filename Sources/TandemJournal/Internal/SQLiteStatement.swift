import CSQLite
import TandemProtocol

/// A prepared statement with typed binds and columns; finalized exactly once, in `deinit`.
/// Its connection closes with `sqlite3_close_v2`, which waits for the statement's finalization.
///
/// ```swift
/// let insert = try connection.statement("INSERT INTO t(a, b) VALUES (?, ?)")
/// try insert.run { (s: SQLiteStatement) throws(SQLiteError) in
///   try s.bind(Int64(1), at: 1)
///   try s.bind("one", at: 2)
///   _ = try s.step()
/// }
/// ```
package final class SQLiteStatement {
  private let handle: OpaquePointer
  /// The statement's SQL text.
  package let sql: String

  /// Prepares `sql` (`sqlite3_prepare_v3` with `SQLITE_PREPARE_PERSISTENT`, as it is reused).
  package init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
    var prepared: OpaquePointer?
    let code = connection.withHandle { database in
      sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    }
    try connection.check(code, "sqlite3_prepare_v3(\(sql))")
    guard let prepared else {
      preconditionFailure("SQLiteStatement: '\(sql)' holds no statement")
    }
    self.handle = prepared
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Runs `body` with the statement, then resets it and clears its bindings for the next use,
  /// whether `body` returned or threw.
  package func run<R>(_ body: (SQLiteStatement) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    return try body(self)
  }

  /// Steps once: true when a row is available, false when the statement is done.
  package func step() throws(SQLiteError) -> Bool {
    try check(sqlite3_step(handle), "sqlite3_step") == SQLITE_ROW
  }

  /// ``sqliteCheck`` with this statement's connection and SQL.
  @discardableResult
  private func check(_ code: Int32, _ call: String) throws(SQLiteError) -> Int32 {
    try sqliteCheck(code, database: sqlite3_db_handle(handle), "\(call)(\(sql))")
  }

  // MARK: Binds (parameter indexes start at 1)

  /// Binds a 64-bit integer.
  package func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
    try check(sqlite3_bind_int64(handle, index, value), "sqlite3_bind_int64")
  }

  /// Binds an unsigned 64-bit integer by its bit pattern (read it back with ``uint64(at:)``).
  package func bind(_ value: UInt64, at index: Int32) throws(SQLiteError) {
    try bind(Int64(bitPattern: value), at: index)
  }

  /// Binds text as UTF-8 (SQLite copies it).
  package func bind(_ value: String, at index: Int32) throws(SQLiteError) {
    var text = value
    let code = text.withUTF8 { bytes -> Int32 in
      guard let base = bytes.baseAddress, bytes.count > 0 else {
        return sqlite3_bind_text(handle, index, "", 0, tandem_sqlite_transient())
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
        sqlite3_bind_text64(
          handle, index, characters, sqlite3_uint64(bytes.count), tandem_sqlite_transient(),
          UInt8(SQLITE_UTF8))
      }
    }
    try check(code, "sqlite3_bind_text64")
  }

  /// Binds bytes as a blob (SQLite copies them); an empty array binds an empty blob, not NULL.
  package func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
    let code = value.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress, bytes.count > 0 else {
        return sqlite3_bind_zeroblob(handle, index, 0)
      }
      return sqlite3_bind_blob64(
        handle, index, base, sqlite3_uint64(bytes.count), tandem_sqlite_transient())
    }
    try check(code, "sqlite3_bind_blob64")
  }

  // MARK: Columns of the current row (indexes start at 0)

  /// Whether the column is NULL.
  package func isNull(at index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  /// The column as a 64-bit integer.
  package func int64(at index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }

  /// The column as an unsigned 64-bit integer, by bit pattern.
  package func uint64(at index: Int32) -> UInt64 {
    UInt64(bitPattern: sqlite3_column_int64(handle, index))
  }

  /// The column as UTF-8 text (invalid sequences are replaced).
  package func text(at index: Int32) -> String {
    guard let start = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }

  /// The column as UTF-8 text, reusing an equal string from `recent` when there is one.
  package func text(at index: Int32, reusing recent: inout RecentStrings) -> String {
    guard let start = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return recent.string(UnsafeBufferPointer(start: start, count: count))
  }

  /// The column as bytes (a copy).
  package func blob(at index: Int32) -> [UInt8] {
    guard let start = sqlite3_column_blob(handle, index) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, index))
    return [UInt8](UnsafeRawBufferPointer(start: start, count: count))
  }
}
