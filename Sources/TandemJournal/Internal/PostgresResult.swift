import CPostgres

/// The rows of one statement, in binary form; frees libpq's result when it goes.
package final class PostgresResult {
  private let handle: OpaquePointer

  /// Takes ownership of `handle`.
  init(_ handle: OpaquePointer) { self.handle = handle }

  deinit { PQclear(handle) }

  /// How many rows came back.
  package var count: Int { Int(PQntuples(handle)) }

  /// The rows a command touched (`UPDATE ... ` without `RETURNING`), from its command tag.
  package var affected: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

  /// Whether column `column` of row `row` is NULL.
  package func isNull(_ row: Int, _ column: Int) -> Bool {
    PQgetisnull(handle, Int32(row), Int32(column)) == 1
  }

  /// The raw bytes of a field (empty for NULL).
  package func bytes(_ row: Int, _ column: Int) -> [UInt8] {
    let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
    guard length > 0, let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return [] }
    return value.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  /// A `text` field.
  package func string(_ row: Int, _ column: Int) -> String {
    String(decoding: bytes(row, column), as: UTF8.self)
  }

  /// An `int8` field (`int4` and `int2` fields are read too); nil for NULL or another type.
  package func int64(_ row: Int, _ column: Int) -> Int64? {
    guard !isNull(row, column) else { return nil }
    let field = bytes(row, column)
    guard [2, 4, 8].contains(field.count) else { return nil }
    var value: Int64 = field[0] & 0x80 != 0 ? -1 : 0
    for byte in field { value = (value << 8) | Int64(byte) }
    return value
  }

  /// A `bool` field; nil for NULL.
  package func bool(_ row: Int, _ column: Int) -> Bool? {
    isNull(row, column) ? nil : bytes(row, column).first == 1
  }
}
