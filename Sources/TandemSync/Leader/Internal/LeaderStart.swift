import StatePatch
import TandemJournal
import TandemProtocol

/// Where a leader starts: from its journal's history when it has one, else from the store's
/// initial state in a new epoch.
struct LeaderStart<State: Codable & Sendable>: Sendable {
  var epoch: Epoch
  var sequence: UInt64
  var state: State
  var ledger: ClientLedger
  /// Whether `state` came from the journal (and must replace the store's).
  var recovered: Bool
  /// The journal's deltas after its latest snapshot, to seed the in-memory backlog.
  var recentDeltas: [Delta]
  var journal: (any JournalStore)?

  init(initial: State, configuration: LeaderConfiguration, log: TandemLogger) throws {
    let emptyLedger = ClientLedger(
      idleLimit: configuration.ledgerIdleLimit,
      maximumClients: configuration.maximumLedgerClients)
    guard let location = configuration.journalLocation, configuration.journal.durability != .off
    else {
      self.init(
        epoch: .random(), sequence: 0, state: initial,
        ledger: emptyLedger, recovered: false, recentDeltas: [],
        journal: nil)
      return
    }
    let schema = SchemaDescription(of: State.self)
    let schemaBytes = schema.json.canonicalBytes()
    // The location without a password, for messages.
    let path = location.description
    // Read an SQLite journal first without the leader session, which writes: a journal this
    // build cannot read is refused with nothing written to it. (A PostgreSQL journal's open
    // writes nothing to a history it finds; its check comes after the open.)
    var checked: (sequence: UInt64, snapshot: UInt64, state: State, document: JSONValue)?
    if case .sqlite(let file) = location {
      checked = try Self.readable(path: file, schema: schema)
    }
    let journal = try location.open(
      configuration: configuration.journal, fencing: configuration.fencing)
    let recovery = try journal.recover()
    guard let snapshot = recovery.snapshot else {
      // A new journal: its base is the initial state at sequence 0.
      var encoder = StateEncoder()
      let document = try encoder.encode(initial).canonicalBytes()
      try journal.writeSnapshot(
        sequence: 0, document: document,
        ledger: emptyLedger, schema: schemaBytes)
      log.info("new journal at \(path), epoch \(recovery.epoch)")
      self.init(
        epoch: recovery.epoch, sequence: 0, state: initial,
        ledger: emptyLedger, recovered: false, recentDeltas: [],
        journal: journal)
      return
    }
    let replayed: (state: State, document: JSONValue)
    if let checked, checked.sequence == recovery.sequence,
      checked.snapshot == snapshot.sequence
    {
      replayed = (checked.state, checked.document)
    } else {
      try Self.check(snapshot, path: path, schema: schema)
      replayed = try Self.replay(snapshot, recovery.deltas, path: path)
    }
    let state = replayed.state
    var ledger = recovery.ledger
    ledger.idleLimit = configuration.ledgerIdleLimit
    ledger.maximumClients = configuration.maximumLedgerClients
    // A journal another build wrote: its document may not be the one this build encodes (a
    // new defaulted field is absent from it). A delta from it to this build's encoding, as the
    // next sequence, brings the journal and the replicas that follow this epoch to the
    // document the deltas of this build patch; then a snapshot records this build's schema.
    var encoder = StateEncoder()
    let document = try encoder.encode(state)
    var sequence = recovery.sequence
    var recentDeltas = recovery.deltas
    if document != replayed.document {
      sequence += 1
      let migration = Delta(
        sequence: sequence, origin: .leader, tag: Self.migrationTag,
        patch: JSONPatch(from: replayed.document, to: document).json.canonicalBytes())
      _ = try journal.append([migration], ledger: [:], forgetting: [], forgottenThrough: 0)
      recentDeltas.append(migration)
      log.info("migrated \(path) to this build's encoding of the state: delta \(sequence)")
    }
    if snapshot.schema != schemaBytes {
      try journal.writeSnapshot(
        sequence: sequence, document: document.canonicalBytes(), ledger: ledger,
        schema: schemaBytes)
      log.info("recorded this build's state schema in \(path) with a snapshot at \(sequence)")
    }
    let recovered =
      "recovered \(path): snapshot at \(snapshot.sequence) + \(recovery.deltas.count) deltas, "
      + "epoch \(recovery.epoch) (\(recovery.epochContinuity))"
    // History that may be lost is worth a warning: followers resync, and the operator should
    // know why.
    if case .minted = recovery.epochContinuity {
      log.warning(recovered + "; followers resync from this history")
    } else {
      log.info(recovered)
    }
    self.init(
      epoch: recovery.epoch, sequence: sequence, state: state, ledger: ledger,
      recovered: true, recentDeltas: recentDeltas, journal: journal)
  }

  /// The tag of the delta that migrates a journal's document to this build's encoding.
  static var migrationTag: String { "tandem.schema-migration" }

  private init(
    epoch: Epoch, sequence: UInt64, state: State, ledger: ClientLedger, recovered: Bool,
    recentDeltas: [Delta], journal: (any JournalStore)?
  ) {
    self.epoch = epoch
    self.sequence = sequence
    self.state = state
    self.ledger = ledger
    self.recovered = recovered
    self.recentDeltas = recentDeltas
    self.journal = journal
  }

  /// The state of the journal at `path`, read without a leader session (so nothing is
  /// written), with the sequences it is at; nil when there is no journal with a snapshot to
  /// read there (the leader's open then creates it, upgrades it, or says what is wrong).
  ///
  /// - Throws: ``LeaderError/unreplayableJournal(path:sequence:reason:)`` naming each field
  ///   this build cannot read.
  private static func readable(
    path: String, schema: SchemaDescription
  ) throws -> (
    sequence: UInt64, snapshot: UInt64, state: State, document: JSONValue
  )? {
    guard let reader = try? Journal(readingAt: path) else { return nil }
    defer { reader.close() }
    guard let recovery = try? reader.recover(), let snapshot = recovery.snapshot else {
      return nil
    }
    try check(snapshot, path: path, schema: schema)
    let replayed = try replay(snapshot, recovery.deltas, path: path)
    return (recovery.sequence, snapshot.sequence, replayed.state, replayed.document)
  }

  /// Refuses a snapshot whose recorded schema this build's state type (of `schema`) cannot
  /// read, by the rules of ``SchemaCompatibility``, naming each field.
  private static func check(
    _ snapshot: JournalSnapshot, path: String, schema: SchemaDescription
  ) throws {
    guard !snapshot.schema.isEmpty else { return }
    let recorded: SchemaDescription
    do {
      recorded = try SchemaDescription(json: try JSONParser().parse(snapshot.schema))
    } catch {
      throw LeaderError.unreplayableJournal(
        path: path, sequence: snapshot.sequence,
        reason: "the snapshot's recorded schema does not parse: \(error)")
    }
    let conflicts = SchemaCompatibility.journal(reader: schema, writer: recorded)
    guard conflicts.isEmpty else {
      throw LeaderError.unreplayableJournal(
        path: path, sequence: snapshot.sequence,
        reason: "\(State.self) cannot read the state it holds: "
          + conflicts.map(\.description).joined(separator: "; "))
    }
  }

  /// The state the snapshot and the deltas after it give: the patches applied in order to the
  /// snapshot's document, which is decoded once at the end (with the document).
  private static func replay(
    _ snapshot: JournalSnapshot, _ deltas: [Delta], path: String
  ) throws
    -> (state: State, document: JSONValue)
  {
    var document: JSONValue
    do {
      document = try JSONParser().parse(snapshot.document)
    } catch {
      throw LeaderError.unreplayableJournal(
        path: path, sequence: snapshot.sequence, reason: "the snapshot does not parse: \(error)")
    }
    for delta in deltas {
      do {
        try document.apply(try JSONPatch(json: try JSONParser().parse(delta.patch)))
      } catch {
        throw LeaderError.unreplayableJournal(
          path: path, sequence: delta.sequence, reason: "\(error)")
      }
    }
    do {
      var decoder = StateDecoder()
      return (try decoder.decode(State.self, from: document), document)
    } catch {
      throw LeaderError.unreplayableJournal(
        path: path, sequence: deltas.last?.sequence ?? snapshot.sequence,
        reason: "the recovered state does not decode as \(State.self): \(error)")
    }
  }
}
