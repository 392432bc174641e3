import TandemProtocol

/// The `tandem_meta` records of a PostgreSQL journal, as one transaction read them.
struct PostgresJournalMeta: Equatable {
  var epoch: Epoch
  var version: Int64
  var lastSequence: UInt64
  var lastChain: UInt64
  var chainBase: UInt64
  var forgottenThrough: UInt64
  var deltasSinceSnapshot: Int64
  var bytesSinceSnapshot: Int64

  /// The records in `result` (key, value rows); throws when one is missing.
  init(_ result: PostgresResult, location: String) throws(JournalError) {
    var values: [String: Int64] = [:]
    for row in 0..<result.count { values[result.string(row, 0)] = result.int64(row, 1) }
    func value(_ key: String) throws(JournalError) -> Int64 {
      guard let value = values[key] else {
        throw .corrupt(path: location, detail: "the meta record \(key) is missing")
      }
      return value
    }
    typealias Schema = PostgresJournalSchema
    epoch = Epoch(rawValue: UInt64(bitPattern: try value(Schema.epochKey)))
    version = try value(Schema.versionKey)
    lastSequence = UInt64(max(0, try value(Schema.lastSequenceKey)))
    lastChain = UInt64(bitPattern: try value(Schema.lastChainKey))
    chainBase = UInt64(bitPattern: try value(Schema.chainBaseKey))
    forgottenThrough = UInt64(max(0, try value(Schema.forgottenThroughKey)))
    deltasSinceSnapshot = try value(Schema.deltasSinceSnapshotKey)
    bytesSinceSnapshot = try value(Schema.bytesSinceSnapshotKey)
  }

  /// The records as (key, value) pairs, to write back what changed.
  var records: [(String, Int64)] {
    typealias Schema = PostgresJournalSchema
    return [
      (Schema.lastSequenceKey, Int64(lastSequence)),
      (Schema.lastChainKey, Int64(bitPattern: lastChain)),
      (Schema.chainBaseKey, Int64(bitPattern: chainBase)),
      (Schema.forgottenThroughKey, Int64(bitPattern: forgottenThrough)),
      (Schema.deltasSinceSnapshotKey, deltasSinceSnapshot),
      (Schema.bytesSinceSnapshotKey, bytesSinceSnapshot),
    ]
  }
}

extension PostgresJournal {
  /// Runs `body` in a fenced write transaction: the lease row locked and checked (when the
  /// journal has a ``Fencing``), the meta records locked and read, then written back as
  /// `body` left them, and the commit. Appenders serialize on the meta rows.
  func write<T: Sendable>(
    _ body: (PostgresConnection, inout PostgresJournalMeta) throws(JournalError) -> T
  ) throws(JournalError) -> T {
    precondition(
      !isReadOnly, "PostgresJournal \(location) was opened for reading; it cannot be written")
    let location = location
    let fencing = fencing
    return try slot.use(wrap: { JournalError.postgres(location: location, $0) }) {
      (connection, _) throws(JournalError) -> T in
      try connection.transaction(wrap: { JournalError.postgres(location: location, $0) }) {
        () throws(JournalError) -> T in
        if let fencing { try Self.checkFence(fencing, on: connection, location: location) }
        let result = try postgres { () throws(PostgresError) in
          try connection.exec(PostgresJournalSchema.metaForUpdate)
        }
        let before = try PostgresJournalMeta(result, location: location)
        var meta = before
        let value = try body(connection, &meta)
        for ((key, old), (_, new)) in zip(before.records, meta.records) where old != new {
          _ = try postgres { () throws(PostgresError) in
            try connection.exec(PostgresJournalSchema.setMeta, [.text(key), .int8(new)])
          }
        }
        return value
      }
    }
  }

  /// Locks the lease row against acquisitions until the commit and throws
  /// ``JournalError/fenced(holder:fencingEpoch:current:)`` unless it is `fencing`'s running
  /// lease.
  static func checkFence(
    _ fencing: Fencing, on connection: PostgresConnection, location: String
  ) throws(JournalError) {
    let record: LeaseRecord?
    do {
      record = PostgresLeaseSchema.record(try connection.exec(PostgresLeaseSchema.lockForWrite))
    } catch {
      throw .postgres(location: location, error)
    }
    guard let record, record.holder == fencing.holder,
      record.fencingEpoch == fencing.fencingEpoch, !record.isExpired
    else {
      throw .fenced(holder: fencing.holder, fencingEpoch: fencing.fencingEpoch, current: record)
    }
  }

  /// Runs `body` in a read transaction that sees one state of the database (`REPEATABLE
  /// READ`), without the lease.
  func read<T: Sendable>(
    _ body: (PostgresConnection) throws(JournalError) -> T
  ) throws(JournalError) -> T {
    let location = location
    return try slot.use(wrap: { JournalError.postgres(location: location, $0) }) {
      (connection, _) throws(JournalError) -> T in
      try connection.transaction(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        wrap: { JournalError.postgres(location: location, $0) }
      ) { () throws(JournalError) -> T in try body(connection) }
    }
  }

  /// The meta records, unlocked.
  func meta(_ connection: PostgresConnection) throws(JournalError) -> PostgresJournalMeta {
    let result = try postgres { () throws(PostgresError) in
      try connection.exec(PostgresJournalSchema.meta)
    }
    return try PostgresJournalMeta(result, location: location)
  }

  /// Whether the database holds the journal's tables (its meta table stands for them all).
  func hasTables(_ connection: PostgresConnection) throws(JournalError) -> Bool {
    let result = try postgres { () throws(PostgresError) in
      try connection.exec("SELECT to_regclass('tandem_meta') IS NOT NULL")
    }
    return result.bool(0, 0) == true
  }

  /// The sequence of the latest snapshot, if any.
  func snapshotSequence(_ connection: PostgresConnection) throws(JournalError) -> UInt64? {
    let result = try postgres { () throws(PostgresError) in
      try connection.exec("SELECT max(sequence) FROM tandem_snapshots")
    }
    return result.int64(0, 0).map { UInt64($0) }
  }

  /// Runs `body`, its PostgreSQL failures as ``JournalError/postgres(location:_:)``.
  func postgres<T>(_ body: () throws(PostgresError) -> T) throws(JournalError) -> T {
    do { return try body() } catch { throw .postgres(location: location, error) }
  }
}
