import StatePatch
import TandemProtocol

/// How the `ledger` and `snapshot_ledger` tables hold a ``ClientLedger/Entry``: parameters and
/// columns in the order client, last number, last sequence, last active, rejections,
/// generation, key. The
/// rejections are the canonical JSON array of `[number, code, message]` triples, by number.
extension SQLiteStatement {
  /// Binds `client`'s `entry` as parameters 1 to 7.
  package func bindLedgerEntry(_ entry: ClientLedger.Entry, of client: String) throws(SQLiteError) {
    try bind(client, at: 1)
    try bind(entry.lastNumber, at: 2)
    try bind(entry.lastSequence, at: 3)
    try bind(entry.lastActive, at: 4)
    let rejections = entry.rejections.keys.sorted().map { number -> JSONValue in
      let rejection = entry.rejections[number]!
      return [.uint(number), .string(rejection.code.rawValue), .string(rejection.message)]
    }
    try bind(JSONValue.array(rejections).canonicalBytes(), at: 5)
    try bind(entry.generation, at: 6)
    try bind(entry.key, at: 7)
  }

  /// The client and the entry of the current row (columns 0 to 6).
  ///
  /// - Throws: an `SQLITE_CORRUPT` error when the rejections column does not read.
  package func ledgerEntry() throws(SQLiteError) -> (client: String, entry: ClientLedger.Entry) {
    let client = text(at: 0)
    var entry = ClientLedger.Entry(
      lastNumber: uint64(at: 1), lastSequence: uint64(at: 2), lastActive: uint64(at: 3),
      generation: uint64(at: 5), key: text(at: 6))
    guard let rejections = Self.rejections(from: blob(at: 4)) else {
      throw .corruptJournal("the rejections of client \(client) are not a list of rejections")
    }
    entry.rejections = rejections
    return (client, entry)
  }

  private static func rejections(from bytes: [UInt8]) -> [UInt64: Rejection]? {
    guard case .array(let triples)? = try? JSONValue(parsing: bytes) else { return nil }
    var rejections: [UInt64: Rejection] = [:]
    for triple in triples {
      guard case .array(let fields) = triple, fields.count == 3,
        case .string(let code) = fields[1], let code = Rejection.Code(rawValue: code),
        case .string(let message) = fields[2]
      else { return nil }
      let number: UInt64
      switch fields[0] {
      case .int(let value) where value >= 0: number = UInt64(value)
      case .uint(let value): number = value
      default: return nil
      }
      rejections[number] = Rejection(code: code, message: message)
    }
    return rejections
  }
}
