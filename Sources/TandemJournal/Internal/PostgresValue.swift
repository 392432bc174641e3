/// A parameter of a statement, sent to PostgreSQL in binary form.
package enum PostgresValue: Sendable, Hashable {
  /// An `int8` (`bigint`).
  case int8(Int64)
  /// A `bytea`, its bytes as they are.
  case bytea([UInt8])
  /// A `text`, in UTF-8.
  case text(String)
  /// SQL NULL (of type `unknown`: the statement says its type, e.g. `$1::bytea`).
  case null

  /// The parameter's type OID (`pg_type.oid`), 0 to let the server infer it.
  var typeOID: UInt32 {
    switch self {
    case .int8: 20
    case .bytea: 17
    case .text: 25
    case .null: 0
    }
  }

  /// The binary wire form of the value, or nil for NULL.
  var bytes: [UInt8]? {
    switch self {
    case .int8(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
    case .bytea(let bytes): bytes
    case .text(let text): Array(text.utf8)
    case .null: nil
    }
  }
}
