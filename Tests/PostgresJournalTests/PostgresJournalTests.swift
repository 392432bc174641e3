import PostgresTestSupport
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// The PostgreSQL journal against the tests' private cluster: the history stored and read
/// back, checksums and the chain, compaction, and fencing (a deposed leader's writes refused,
/// nothing of them stored).
@Suite struct PostgresJournalTests {
  static let initial = Array(#"{"n":0}"#.utf8)

  /// A one-action delta at `sequence` from `client`'s action `number`.
  static func delta(_ sequence: UInt64, client: String = "f1", number: UInt64? = nil) -> Delta {
    Delta(
      sequence: sequence, origin: Origin(client: client, number: number ?? sequence, key: "k1"),
      tag: "inc", patch: Array(#"[{"op":"replace","path":"/n","value":\#(sequence)}]"#.utf8))
  }

  /// A delta of the actions at `first`...`last`, one patch.
  static func grouped(_ first: UInt64, _ last: UInt64) -> Delta {
    Delta(
      sequence: last,
      actions: (first...last).map {
        AppliedAction(origin: Origin(client: "f2", number: $0), tag: "inc")
      },
      patch: Array(#"[{"op":"replace","path":"/n","value":\#(last)}]"#.utf8))
  }

  @Test func aHistoryIsStoredAndReadBackGroupedWithTheLedger() throws {
    let database = try PostgresTestCluster.database()
    let journal = try PostgresJournal(connection: database)
    #expect(try journal.recover().snapshot == nil)
    try journal.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    var entry = ClientLedger.Entry(lastNumber: 4, lastSequence: 1, lastActive: 4, key: "k1")
    entry.rejections[4] = Rejection(code: .refused, message: "no")
    entry.rejectedRuns = [
      ClientLedger.RejectedRun(
        numbers: 2...3, rejection: Rejection(code: .commitFailed, message: "x"))
    ]
    try journal.append([Self.delta(1)], ledger: ["f1": entry])
    try journal.append([Self.grouped(2, 4), Self.delta(5)])
    let commit = try journal.append([Self.delta(6)])
    #expect(commit.lastSequence == 6)
    #expect(try journal.lastSequence == 6)

    let recovery = try journal.recover()
    #expect(recovery.epochContinuity == .continued)
    #expect(recovery.snapshot?.sequence == 0)
    #expect(recovery.deltas == [Self.delta(1), Self.grouped(2, 4), Self.delta(5), Self.delta(6)])
    #expect(recovery.ledger.entries["f1"] == entry)
    #expect(try journal.deltas(from: 2) == [Self.grouped(2, 4), Self.delta(5), Self.delta(6)])
    #expect(try journal.deltas(from: 3) == nil)  // inside the grouped delta
    #expect(try journal.deltas(from: 7) == [])
    #expect(try journal.deltas(from: 8) == nil)
    #expect(try journal.deltas(from: 1, maximumBytes: 10) == nil)
    #expect(try journal.verify().isSound)

    // Another process opening the same database continues the same history.
    let again = try PostgresJournal(connection: database)
    #expect(try again.epoch == (try journal.epoch))
    #expect(try again.recover() == recovery)
  }

  @Test func appendsThatDoNotFollowAreRefusedAndStoreNothing() throws {
    let journal = try PostgresJournal(connection: try PostgresTestCluster.database())
    #expect(throws: JournalError.noBaseSnapshot(path: journal.location)) {
      try journal.append([Self.delta(1)])
    }
    try journal.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    #expect(throws: JournalError.sequenceMismatch(expected: 1, got: 2)) {
      try journal.append([Self.delta(2)])
    }
    try journal.append([Self.delta(1)])
    // A failing row (a duplicate key) rolls the whole batch back.
    #expect(throws: JournalError.sequenceMismatch(expected: 2, got: 1)) {
      try journal.append([Self.delta(1)])
    }
    #expect(try journal.lastSequence == 1)
    #expect(throws: JournalError.sequenceMismatch(expected: 1, got: 0)) {
      try journal.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    }
  }

  @Test func aChangedRowBreaksTheChainAndRecoveryRefusesIt() throws {
    let database = try PostgresTestCluster.database()
    let journal = try PostgresJournal(connection: database)
    try journal.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    try journal.append([Self.delta(1), Self.delta(2), Self.delta(3)])
    let tamper = try PostgresConnection(database)
    try tamper.exec("UPDATE tandem_deltas SET tag = 'dec' WHERE sequence = 2")
    let verification = try journal.verify()
    #expect(!verification.isSound)
    #expect(verification.problems.contains { $0.contains("sequence 2") }, "\(verification)")
    #expect(
      throws: JournalError.corrupt(path: journal.location, detail: DeltaChain.mismatch(at: 2))
    ) {
      try journal.recover()
    }
    try tamper.exec("UPDATE tandem_snapshots SET document = '\\x7b7d'::bytea")
    #expect(try journal.verify().problems.contains { $0.contains("does not match its hash") })
  }

  @Test func compactionKeepsWholeDeltasAndTheChainChecksTheOldestKept() throws {
    let journal = try PostgresJournal(
      connection: try PostgresTestCluster.database(),
      configuration: .init(catchUpWindow: 2, compactsAfterSnapshot: false))
    try journal.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    try journal.append([Self.delta(1), Self.grouped(2, 4), Self.delta(5), Self.delta(6)])
    try journal.writeSnapshot(sequence: 6, document: Self.initial, ledger: ClientLedger())
    let compaction = try journal.compact()
    // The edge (6 - 2 = 4) closes the grouped delta: rows 1...4 go, the old snapshot too.
    #expect(compaction.deltasRemoved == 4)
    #expect(compaction.snapshotsRemoved == 1)
    #expect(try journal.deltas(from: 5) == [Self.delta(5), Self.delta(6)])
    #expect(try journal.deltas(from: 2) == nil)
    #expect(try journal.verify().isSound)
    try journal.append([Self.delta(7)])
    #expect(try journal.recover().deltas == [Self.delta(7)])
  }

  @Test func aDeposedLeaderCannotCommitAndNothingOfItIsStored() throws {
    let database = try PostgresTestCluster.database()
    let lease = try PostgresLease(connection: database)
    let first = try #require(
      try lease.acquire(holder: "a", control: "c", updates: "u", length: .seconds(60)))
    let a = try PostgresJournal(
      connection: database, fencing: .init(holder: "a", fencingEpoch: first.fencingEpoch))
    try a.writeSnapshot(sequence: 0, document: Self.initial, ledger: ClientLedger())
    try a.append([Self.delta(1)])

    // a's lease runs out (a stalled process, a partition) and b takes it over.
    let tamper = try PostgresConnection(database)
    try tamper.exec("UPDATE tandem_lease SET expires_at = clock_timestamp() - interval '1 s'")
    #expect {
      try a.append([Self.delta(2, client: "late")])
    } throws: { error in
      guard case .fenced("a", first.fencingEpoch, let current) = error as? JournalError else {
        return false
      }
      return current?.isExpired == true
    }
    let second = try #require(
      try lease.acquire(holder: "b", control: "c", updates: "u", length: .seconds(60)))
    #expect(second.fencingEpoch == first.fencingEpoch + 1)
    let b = try PostgresJournal(
      connection: database, fencing: .init(holder: "b", fencingEpoch: second.fencingEpoch))
    try b.append([Self.delta(2, client: "b-client")])

    // a, unaware, tries every kind of write: each refused, naming the new holder.
    let refusals: [(String, () throws(JournalError) -> Void)] = [
      ("append", { () throws(JournalError) in _ = try a.append([Self.delta(3, client: "late")]) }),
      (
        "snapshot",
        { () throws(JournalError) in
          try a.writeSnapshot(sequence: 2, document: Self.initial, ledger: ClientLedger())
        }
      ),
      ("compact", { () throws(JournalError) in _ = try a.compact() }),
    ]
    for (name, write) in refusals {
      do throws(JournalError) {
        try write()
        Issue.record("\(name) by the deposed leader was not refused")
      } catch {
        guard case .fenced("a", first.fencingEpoch, let current) = error else {
          Issue.record("\(name): \(error)")
          continue
        }
        #expect(current?.holder == "b" && current?.fencingEpoch == second.fencingEpoch, "\(name)")
        #expect("\(error)".contains("nothing of it stored"))
      }
    }
    let recovery = try b.recover()
    #expect(recovery.deltas.map(\.actions.first?.origin.client) == ["f1", "b-client"])
    #expect(recovery.sequence == 2)
    let stored = try tamper.exec("SELECT count(*) FROM tandem_deltas WHERE client = 'late'")
    #expect(stored.int64(0, 0) == 0)
    #expect(try tamper.exec("SELECT count(*) FROM tandem_snapshots").int64(0, 0) == 1)
    #expect(try b.verify().isSound)
  }
}
