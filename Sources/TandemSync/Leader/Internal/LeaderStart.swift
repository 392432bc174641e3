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
  var journal: Journal?

  init(initial: State, configuration: LeaderConfiguration, log: TandemLogger) throws {
    let emptyLedger = ClientLedger(
      idleLimit: configuration.ledgerIdleLimit,
      maximumClients: configuration.maximumLedgerClients)
    guard let path = configuration.journalPath, configuration.journal.durability != .off else {
      self.init(
        epoch: .random(), sequence: 0, state: initial,
        ledger: emptyLedger, recovered: false, recentDeltas: [],
        journal: nil)
      return
    }
    let journal = try Journal(path: path, configuration: configuration.journal)
    let recovery = try journal.recover()
    guard let snapshot = recovery.snapshot else {
      // A new journal: its base is the initial state at sequence 0.
      var encoder = StateEncoder()
      let document = try encoder.encode(initial).canonicalBytes()
      try journal.writeSnapshot(
        sequence: 0, document: document,
        ledger: emptyLedger)
      log.info("new journal at \(path), epoch \(recovery.epoch)")
      self.init(
        epoch: recovery.epoch, sequence: 0, state: initial,
        ledger: emptyLedger, recovered: false, recentDeltas: [],
        journal: journal)
      return
    }
    let state = try Self.replay(snapshot, recovery.deltas, path: path)
    var ledger = recovery.ledger
    ledger.idleLimit = configuration.ledgerIdleLimit
    ledger.maximumClients = configuration.maximumLedgerClients
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
      epoch: recovery.epoch, sequence: recovery.sequence, state: state, ledger: ledger,
      recovered: true, recentDeltas: recovery.deltas, journal: journal)
  }

  private init(
    epoch: Epoch, sequence: UInt64, state: State, ledger: ClientLedger, recovered: Bool,
    recentDeltas: [Delta], journal: Journal?
  ) {
    self.epoch = epoch
    self.sequence = sequence
    self.state = state
    self.ledger = ledger
    self.recovered = recovered
    self.recentDeltas = recentDeltas
    self.journal = journal
  }

  /// The state the snapshot and the deltas after it give: the patches applied in order to the
  /// snapshot's document, which is decoded once at the end.
  private static func replay(
    _ snapshot: JournalSnapshot, _ deltas: [Delta], path: String
  ) throws
    -> State
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
      return try decoder.decode(State.self, from: document)
    } catch {
      throw LeaderError.unreplayableJournal(
        path: path, sequence: deltas.last?.sequence ?? snapshot.sequence,
        reason: "the recovered state does not decode as \(State.self): \(error)")
    }
  }
}
