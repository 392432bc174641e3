import StatePatch
import TandemProtocol

/// A journal that several leader processes share, one at a time, in a PostgreSQL database:
/// the same records as ``Journal`` (deltas with their hash chain, snapshots, the client ledger,
/// the epoch), in tables beside the leadership lease's (``PostgresLease``).
///
/// Opened with a ``Fencing`` (the holder and fencing epoch of a lease the leader holds), every
/// write (append, snapshot, compaction) runs in one transaction that first locks the lease row
/// (`SELECT ... FOR SHARE`) and checks that the lease is still this holder's, with this fencing
/// epoch, and still running; otherwise it throws ``JournalError/fenced(holder:fencingEpoch:current:)``
/// and stores nothing. An acquisition updates that row, so it waits for a write in progress to
/// commit, and every write after it sees the new epoch: a deposed leader can never commit.
///
/// A PostgreSQL commit with `synchronous_commit = on` (the default) is durable when it
/// returns, so there is no lost tail to detect: the epoch is kept across restarts and never
/// minted anew except for a new history (the SQLite journal's high-water mark has no
/// counterpart here).
///
/// ```swift
/// let journal = try PostgresJournal(
///   connection: "postgres://tandem@db.internal/orders",
///   fencing: .init(holder: leaderID, fencingEpoch: record.fencingEpoch))
/// let recovery = try journal.recover()
/// ```
public final class PostgresJournal: Sendable {
  /// Whose lease this journal writes under.
  public struct Fencing: Sendable, Hashable {
    /// The lease holder's leader id.
    public var holder: String
    /// The fencing epoch of its lease.
    public var fencingEpoch: UInt64

    /// The fencing of `holder`'s lease of `fencingEpoch`.
    public init(holder: String, fencingEpoch: UInt64) {
      self.holder = holder
      self.fencingEpoch = fencingEpoch
    }
  }

  /// The connection string without its password.
  public let location: String
  /// The settings it was opened with (durability aside: PostgreSQL's commit is durable).
  public let configuration: Journal.Configuration
  /// The lease this journal's writes are checked against; nil for a journal with no lease
  /// (a single leader, or `tandem journal` commands run while no leader writes).
  public let fencing: Fencing?
  /// Whether this journal was opened with ``init(readingAt:)``.
  public let isReadOnly: Bool
  let slot: PostgresConnectionSlot

  /// Connects to the database at `connection`, creates the journal's and the lease's tables
  /// when they are missing (a new history, of a random epoch), and checks the format.
  ///
  /// - Throws: ``JournalError/postgres(location:_:)`` when the database cannot be reached or
  ///   refuses; ``JournalError/incompatibleVersion(path:found:supported:)`` for tables of
  ///   another format.
  public init(
    connection: String, configuration: Journal.Configuration = Journal.Configuration(),
    fencing: Fencing? = nil
  ) throws(JournalError) {
    let (string, opened) = try Self.connect(connection)
    location = string.description
    self.configuration = configuration
    self.fencing = fencing
    isReadOnly = false
    let location = location
    do {
      try opened.transaction(wrap: { $0 }) { () throws(PostgresError) in
        try Self.createTables(on: opened)
        try opened.exec(
          PostgresJournalSchema.seed, [.int8(Int64(bitPattern: Epoch.random().rawValue))])
      }
    } catch {
      throw .postgres(location: location, error)
    }
    slot = PostgresConnectionSlot(opened, location: string)
    try checkFormat()
  }

  /// Connects to the existing journal in the database at `connection` to read it (`tandem
  /// journal inspect`, `verify`, `backup`): it creates nothing, writes nothing and needs no
  /// lease, so leaders may be running on it. Writing through it is a programmer error.
  ///
  /// - Throws: ``JournalError/notFound(path:)`` when the database has no journal tables;
  ///   ``JournalError/postgres(location:_:)`` when it cannot be reached or refuses;
  ///   ``JournalError/incompatibleVersion(path:found:supported:)`` for tables of another
  ///   format.
  public init(readingAt connection: String) throws(JournalError) {
    let (string, opened) = try Self.connect(connection)
    location = string.description
    configuration = Journal.Configuration()
    fencing = nil
    isReadOnly = true
    slot = PostgresConnectionSlot(opened, location: string)
    guard try read({ (c) throws(JournalError) in try hasTables(c) }) else {
      throw .notFound(path: location)
    }
    try checkFormat()
  }

  /// The parsed connection string and a connection to it.
  static func connect(
    _ connection: String
  ) throws(JournalError) -> (PostgresConnectionString, PostgresConnection) {
    let string: PostgresConnectionString
    do { string = try PostgresConnectionString(connection) } catch {
      throw .postgres(location: "(connection string)", error)
    }
    do {
      return (string, try PostgresConnection(string))
    } catch {
      throw .postgres(location: string.description, error)
    }
  }

  /// Creates the lease's and the journal's tables unless they exist, in the caller's
  /// transaction, serialized with other sessions doing the same by the setup lock.
  static func createTables(on connection: PostgresConnection) throws(PostgresError) {
    try connection.exec("SELECT pg_advisory_xact_lock($1)", [.int8(PostgresLeaseSchema.setupLock)])
    try connection.run(script: PostgresLeaseSchema.create)
    try connection.run(script: PostgresJournalSchema.create)
  }

  /// Throws ``JournalError/incompatibleVersion(path:found:supported:)`` unless the tables are
  /// of this build's format.
  private func checkFormat() throws(JournalError) {
    let meta = try read { (connection) throws(JournalError) in try self.meta(connection) }
    guard meta.version == PostgresJournalSchema.version else {
      throw .incompatibleVersion(
        path: location, found: meta.version, supported: PostgresJournalSchema.version)
    }
  }

  /// The history's epoch.
  public var epoch: Epoch {
    get throws(JournalError) { try read { (c) throws(JournalError) in try meta(c).epoch } }
  }

  /// The sequence of the newest delta or snapshot stored (0 for a new journal).
  public var lastSequence: UInt64 {
    get throws(JournalError) {
      try read { (c) throws(JournalError) in try meta(c).lastSequence }
    }
  }

  /// Stores one committed batch in one transaction, as ``Journal/append(_:ledger:forgetting:forgottenThrough:)``
  /// does, after checking the lease (see ``PostgresJournal``).
  ///
  /// - Throws: ``JournalError/fenced(holder:fencingEpoch:current:)`` when this leader no longer
  ///   holds the lease; ``JournalError/sequenceMismatch(expected:got:)`` when the batch does not
  ///   follow the stored history; ``JournalError/noBaseSnapshot(path:)`` before the first
  ///   snapshot; ``JournalError/postgres(location:_:)`` when the commit fails. Nothing of the
  ///   batch is stored when it throws.
  @discardableResult
  public func append(
    _ deltas: [Delta], ledger: [String: ClientLedger.Entry] = [:], forgetting: [String] = [],
    forgottenThrough: UInt64 = 0
  ) throws(JournalError) -> Journal.Commit {
    let policy = configuration.snapshotPolicy
    return try write { (connection, meta) throws(JournalError) -> Journal.Commit in
      guard try snapshotSequence(connection) != nil else {
        throw .noBaseSnapshot(path: location)
      }
      var expected = meta.lastSequence + 1
      for delta in deltas {
        guard delta.firstSequence == expected else {
          throw .sequenceMismatch(expected: expected, got: delta.firstSequence)
        }
        precondition(!delta.patch.isEmpty, "a patch is a JSON array, never empty bytes")
        expected = delta.sequence + 1
      }
      try postgres { () throws(PostgresError) in
        var chain = meta.lastChain
        var rows = PostgresDeltaRows()
        for delta in deltas {
          for (sequence, action) in delta.sequencedActions {
            let patch = sequence == delta.sequence ? delta.patch : []
            chain = DeltaChain.link(
              previous: chain, sequence: sequence, origin: action.origin, tag: action.tag,
              patch: patch)
            rows.add(DeltaRow(sequence: sequence, action: action, patch: patch, chain: chain))
          }
          meta.deltasSinceSnapshot += 1
          meta.bytesSinceSnapshot += Int64(delta.patch.count)
        }
        // All rows of the batch in one statement: one round trip, whatever the batch's size.
        try rows.insert(on: connection)
        meta.lastChain = chain
        meta.lastSequence = expected - 1
        for (client, entry) in ledger.sorted(by: { $0.key < $1.key }) {
          try connection.exec(
            PostgresJournalSchema.insertLedger + """

              ON CONFLICT (client) DO UPDATE SET last_number = excluded.last_number,
                last_sequence = excluded.last_sequence, last_active = excluded.last_active,
                rejections = excluded.rejections, generation = excluded.generation,
                key = excluded.key
              """, Self.ledgerParameters(client, entry))
        }
        for client in forgetting {
          try connection.exec("DELETE FROM tandem_ledger WHERE client = $1", [.text(client)])
        }
        if !forgetting.isEmpty { meta.forgottenThrough = forgottenThrough }
      }
      return Journal.Commit(
        lastSequence: meta.lastSequence,
        snapshotDue: meta.deltasSinceSnapshot >= Int64(policy.deltaCount)
          || meta.bytesSinceSnapshot >= Int64(policy.patchBytes))
    }
  }

  /// Stores a snapshot of the state at the last sequence with the whole ledger, which also
  /// replaces the current ledger, in one fenced transaction; then compacts when
  /// ``Journal/Configuration/compactsAfterSnapshot`` is set.
  ///
  /// - Throws: ``JournalError/fenced(holder:fencingEpoch:current:)``,
  ///   ``JournalError/sequenceMismatch(expected:got:)`` unless `sequence` is the last sequence,
  ///   or ``JournalError/postgres(location:_:)``; nothing is stored then.
  public func writeSnapshot(
    sequence: UInt64, document: [UInt8], ledger: ClientLedger, schema: [UInt8] = []
  ) throws(JournalError) {
    try write { (connection, meta) throws(JournalError) in
      guard sequence == meta.lastSequence else {
        throw .sequenceMismatch(expected: meta.lastSequence, got: sequence)
      }
      try postgres { () throws(PostgresError) in
        try Self.storeSnapshot(
          JournalSnapshot(
            sequence: sequence, hash: JSONValue.fnv1a(document), document: document,
            ledger: ledger, schema: schema),
          on: connection)
      }
      meta.forgottenThrough = ledger.forgottenThrough
      meta.deltasSinceSnapshot = 0
      meta.bytesSinceSnapshot = 0
    }
    if configuration.compactsAfterSnapshot { _ = try compact() }
  }

  /// Stores `snapshot` (replacing one at its sequence) and its ledger, which also replaces the
  /// current ledger, in the caller's transaction.
  static func storeSnapshot(
    _ snapshot: JournalSnapshot, on connection: PostgresConnection
  ) throws(PostgresError) {
    let sequence = PostgresValue.int8(Int64(snapshot.sequence))
    try connection.exec("DELETE FROM tandem_snapshots WHERE sequence = $1", [sequence])
    try connection.exec(
      "INSERT INTO tandem_snapshots (sequence, hash, document, schema) VALUES ($1, $2, $3, $4)",
      [
        sequence, .int8(Int64(bitPattern: snapshot.hash)), .bytea(snapshot.document),
        .bytea(snapshot.schema),
      ])
    try connection.exec("DELETE FROM tandem_ledger")
    for (client, entry) in snapshot.ledger.entries.sorted(by: { $0.key < $1.key }) {
      let parameters = ledgerParameters(client, entry)
      try connection.exec(PostgresJournalSchema.insertLedger, parameters)
      try connection.exec(PostgresJournalSchema.insertSnapshotLedger, parameters + [sequence])
    }
  }

  /// The parameters $1...$7 of a ledger row.
  static func ledgerParameters(_ client: String, _ entry: ClientLedger.Entry) -> [PostgresValue] {
    [
      .text(client), .int8(Int64(bitPattern: entry.lastNumber)),
      .int8(Int64(bitPattern: entry.lastSequence)), .int8(Int64(bitPattern: entry.lastActive)),
      .bytea(LedgerRejections.encode(entry)), .int8(Int64(bitPattern: entry.generation)),
      .text(entry.key),
    ]
  }
}
