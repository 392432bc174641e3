/// A parameter of a statement, sent to PostgreSQL in binary form.
package enum PostgresValue: Sendable, Hashable {
  /// An `int8` (`bigint`).
  case int8(Int64)
  /// A `bytea`, its bytes as they are.
  case bytea([UInt8])
  /// A `text`, in UTF-8.
  case text(String)
  /// A one-dimensional `int8[]`, for `unnest($1::int8[])`: a batch of rows in one statement.
  case int8Array([Int64])
  /// A one-dimensional `text[]`.
  case textArray([String])
  /// A one-dimensional `bytea[]`.
  case byteaArray([[UInt8]])
  /// SQL NULL (of type `unknown`: the statement says its type, e.g. `$1::bytea`).
  case null

  /// The parameter's type OID (`pg_type.oid`), 0 to let the server infer it.
  var typeOID: UInt32 {
    switch self {
    case .int8: 20
    case .bytea: 17
    case .text: 25
    case .int8Array: 1016
    case .textArray: 1009
    case .byteaArray: 1001
    case .null: 0
    }
  }

  /// The binary wire form of the value, or nil for NULL.
  var bytes: [UInt8]? {
    switch self {
    case .int8(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
    case .bytea(let bytes): bytes
    case .text(let text): Array(text.utf8)
    case .int8Array(let values):
      Self.array(of: 20, values.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
    case .textArray(let values): Self.array(of: 25, values.map { Array($0.utf8) })
    case .byteaArray(let values): Self.array(of: 17, values)
    case .null: nil
    }
  }

  /// PostgreSQL's binary form of a one-dimensional array without NULLs of the type
  /// `elementOID`: the number of dimensions (1), a no-NULLs flag, the element type, the length
  /// and lower bound (1) of the dimension, then each element's length and bytes, all integers
  /// 4-byte big-endian.
  private static func array(of elementOID: UInt32, _ elements: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + $1.count })
    func add(_ value: Int32) {
      withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
    add(1)
    add(0)
    add(Int32(bitPattern: elementOID))
    add(Int32(elements.count))
    add(1)
    for element in elements {
      add(Int32(element.count))
      bytes.append(contentsOf: element)
    }
    return bytes
  }
}
