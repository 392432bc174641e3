import StatePatch
import TandemProtocol

/// How the `ledger` and `snapshot_ledger` tables hold a ``ClientLedger/Entry``: parameters and
/// columns in the order client, last number, last sequence, last active, rejections,
/// generation, key. The
/// rejections are the canonical JSON array of `[number, code, message]` triples, by number,
/// followed by the runs of numbers rejected together as `[first, last, code, message]`.
extension SQLiteStatement {
  /// Binds `client`'s `entry` as parameters 1 to 7.
  package func bindLedgerEntry(_ entry: ClientLedger.Entry, of client: String) throws(SQLiteError) {
    try bind(client, at: 1)
    try bind(entry.lastNumber, at: 2)
    try bind(entry.lastSequence, at: 3)
    try bind(entry.lastActive, at: 4)
    try bind(LedgerRejections.encode(entry), at: 5)
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
    guard let (rejections, runs) = LedgerRejections.decode(blob(at: 4)) else {
      throw .corruptJournal("the rejections of client \(client) are not a list of rejections")
    }
    entry.rejections = rejections
    entry.rejectedRuns = runs
    return (client, entry)
  }
}

/// The rejections column of a ledger row, in both journals: the canonical JSON array of
/// `[number, code, message]` triples, by number, followed by the runs of numbers rejected
/// together as `[first, last, code, message]`.
package enum LedgerRejections {
  /// The column's bytes for `entry`'s rejections and rejected runs.
  package static func encode(_ entry: ClientLedger.Entry) -> [UInt8] {
    let rejections = entry.rejections.keys.sorted().map { number -> JSONValue in
      let rejection = entry.rejections[number]!
      return [.uint(number), .string(rejection.code.rawValue), .string(rejection.message)]
    }
    let runs = entry.rejectedRuns.map { run -> JSONValue in
      [
        .uint(run.numbers.lowerBound), .uint(run.numbers.upperBound),
        .string(run.rejection.code.rawValue), .string(run.rejection.message),
      ]
    }
    return JSONValue.array(rejections + runs).canonicalBytes()
  }

  /// The rejections and runs in `bytes`, or nil when they do not read.
  package static func decode(
    _ bytes: [UInt8]
  ) -> ([UInt64: Rejection], [ClientLedger.RejectedRun])? {
    guard case .array(let items)? = try? JSONValue(parsing: bytes) else { return nil }
    var rejections: [UInt64: Rejection] = [:]
    var runs: [ClientLedger.RejectedRun] = []
    for item in items {
      guard case .array(let fields) = item, fields.count == 3 || fields.count == 4,
        case .string(let code) = fields[fields.count - 2],
        let code = Rejection.Code(rawValue: code),
        case .string(let message) = fields[fields.count - 1],
        let first = number(fields[0])
      else { return nil }
      let rejection = Rejection(code: code, message: message)
      if fields.count == 3 {
        rejections[first] = rejection
      } else {
        guard let last = number(fields[1]), first <= last else { return nil }
        runs.append(ClientLedger.RejectedRun(numbers: first...last, rejection: rejection))
      }
    }
    return (rejections, runs)
  }

  private static func number(_ value: JSONValue) -> UInt64? {
    switch value {
    case .int(let value) where value >= 0: UInt64(value)
    case .uint(let value): value
    default: nil
    }
  }
}
