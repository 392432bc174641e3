/// Sequences as the journal stores them: SQLite integers from 0 to `Int64.max - 1`, so that
/// every sequence read back has a next one the file can hold, and the journal's arithmetic on
/// them cannot overflow. Anything else in a sequence column is corruption: a negative value is
/// what a `UInt64` with its high bit set reads back as.
package enum StoredSequence {
  /// The sequences a journal holds.
  package static let range: ClosedRange<Int64> = 0...(Int64.max - 1)

  /// `value`, read from the sequence column of `table`, as a sequence.
  ///
  /// - Throws: an `SQLITE_CORRUPT` error when it is outside ``range``.
  package static func validated(_ value: Int64, in table: String) throws(SQLiteError) -> UInt64 {
    guard range.contains(value) else {
      throw .corruptJournal("the \(table) table holds sequence \(value), outside \(range)")
    }
    return UInt64(value)
  }
}

extension SQLiteStatement {
  /// The column of the current row as a sequence of `table`, checked in range.
  package func sequence(at index: Int32, in table: String) throws(SQLiteError) -> UInt64 {
    try StoredSequence.validated(int64(at: index), in: table)
  }
}

extension JournalSession {
  /// The sequence `sql` selects from `table` (the first column of its first row), checked in
  /// range; nil when there is no row or the value is NULL.
  package func sequence(
    _ sql: String, in table: String, binding parameter: UInt64? = nil
  ) throws(SQLiteError) -> UInt64? {
    guard let value = try connection.integer(sql, binding: parameter) else { return nil }
    return try StoredSequence.validated(value, in: table)
  }
}
