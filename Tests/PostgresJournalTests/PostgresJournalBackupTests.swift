import Foundation
import PostgresTestSupport
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// A PostgreSQL journal backed up into a journal file: the same history, checked as it is
/// copied, in a file a leader starts on in a new epoch.
@Suite struct PostgresJournalBackupTests {
  typealias Fixture = PostgresJournalTests

  /// A temporary directory for the test, removed after `body`.
  func withDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let directory = NSTemporaryDirectory() + "tandem-pg-backup-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
  }

  /// A journal in a new database with history on both sides of a compaction: rows before the
  /// latest snapshot (kept for catch-up), after it, a chain base that is not 0, and a ledger with
  /// a rejection and a forgotten client.
  func journalWithHistory() throws -> (database: String, journal: PostgresJournal) {
    let database = try PostgresTestCluster.database()
    let journal = try PostgresJournal(
      connection: database, configuration: .init(catchUpWindow: 3, compactsAfterSnapshot: false))
    try journal.writeSnapshot(sequence: 0, document: Fixture.initial, ledger: ClientLedger())
    var entry = ClientLedger.Entry(lastNumber: 2, lastSequence: 1, lastActive: 7, key: "k1")
    entry.rejections[2] = Rejection(code: .refused, message: "no")
    try journal.append([Fixture.delta(1)], ledger: ["f1": entry])
    try journal.append([Fixture.grouped(2, 4), Fixture.delta(5), Fixture.delta(6)])
    try journal.writeSnapshot(
      sequence: 6, document: Array(#"{"n":6}"#.utf8),
      ledger: ClientLedger(restoring: ["f1": entry]), schema: Array(#"{"s":1}"#.utf8))
    // The window's edge (6 - 3) falls inside the grouped delta 2...4: row 1 goes, 2...6 stay.
    try journal.compact()
    try journal.append(
      [Fixture.delta(7, client: "f3")],
      ledger: ["f3": ClientLedger.Entry(lastNumber: 7, lastSequence: 7, lastActive: 7)],
      forgetting: ["f1"], forgottenThrough: 5)
    return (database, journal)
  }

  /// Expects `copy` to hold `original`'s history in `epoch`: the same recovery (snapshot,
  /// deltas, ledger), the rows kept before the snapshot serving the same catch-up, and a sound
  /// verification.
  static func expectSameHistory(
    _ copy: any JournalStore & JournalReader, as original: PostgresJournal, epoch: Epoch,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let verification = try copy.verify { _ in }
    #expect(verification.isSound, "\(verification.problems)", sourceLocation: sourceLocation)
    let recovery = try copy.recover()
    let expected = try original.recover()
    #expect(recovery.epoch == epoch, sourceLocation: sourceLocation)
    expectSameSnapshot(recovery.snapshot, expected.snapshot, sourceLocation: sourceLocation)
    #expect(recovery.deltas == expected.deltas, sourceLocation: sourceLocation)
    #expect(recovery.ledger == expected.ledger, sourceLocation: sourceLocation)
    let catchUp = try original.deltas(from: 2)
    #expect(catchUp?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(
      try copy.deltas(from: 2, maximumBytes: .max) == catchUp, sourceLocation: sourceLocation)
  }

  /// Expects the same snapshot: its sequence, hash, document, schema and ledger entries (a
  /// snapshot's ledger records no forgotten-through sequence of its own in either journal).
  static func expectSameSnapshot(
    _ snapshot: JournalSnapshot?, _ original: JournalSnapshot?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(snapshot != nil, sourceLocation: sourceLocation)
    #expect(snapshot?.sequence == original?.sequence, sourceLocation: sourceLocation)
    #expect(snapshot?.hash == original?.hash, sourceLocation: sourceLocation)
    #expect(snapshot?.document == original?.document, sourceLocation: sourceLocation)
    #expect(snapshot?.schema == original?.schema, sourceLocation: sourceLocation)
    #expect(
      snapshot?.ledger.entries == original?.ledger.entries, sourceLocation: sourceLocation)
  }

  @Test func aBackupIsAJournalFileWithTheSameHistoryThatVerifies() throws {
    let (_, journal) = try journalWithHistory()
    try withDirectory { directory in
      let path = directory + "/backup.journal"
      let backup = try journal.backup(to: path)
      let epoch = try journal.epoch
      #expect(backup.path == path && backup.epoch == epoch && backup.sequence == 7)
      #expect(backup.bytes > 0)
      let copy = try Journal(readingAt: path)
      defer { copy.close() }
      try Self.expectSameHistory(copy, as: journal, epoch: epoch)
      #expect(try copy.stats().oldestSequence == 2)
      #expect(try copy.inspect(actions: 7).actions == (try journal.inspect(actions: 7).actions))
      #expect(!FileManager.default.fileExists(atPath: path + "-mark"))
    }
  }

  @Test func aLeaderStartingOnTheBackupMintsANewEpoch() throws {
    let (_, journal) = try journalWithHistory()
    try withDirectory { directory in
      let path = directory + "/backup.journal"
      _ = try journal.backup(to: path)
      let leader = try Journal(path: path)
      defer { leader.close() }
      let recovery = try leader.recover()
      #expect(recovery.epoch != (try journal.epoch))
      guard case .minted(let reason) = recovery.epochContinuity else {
        Issue.record("a leader on a backup continued its epoch")
        return
      }
      #expect(reason.contains("high-water mark"))
      #expect(recovery.sequence == 7)
      try leader.append([Fixture.delta(8)])
    }
  }

  @Test func aBackupNeverOverwritesAndIsNotMadeOfADamagedHistory() throws {
    let (database, journal) = try journalWithHistory()
    try withDirectory { directory in
      let existing = directory + "/existing"
      try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
      #expect {
        try journal.backup(to: existing)
      } throws: { error in
        guard case .system(existing, _, EEXIST) = error as? JournalError else { return false }
        return true
      }
      #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")

      let tamper = try PostgresConnection(database)
      try tamper.exec("UPDATE tandem_deltas SET tag = 'dec' WHERE sequence = 5")
      let path = directory + "/backup.journal"
      #expect(
        throws: JournalError.corrupt(path: journal.location, detail: DeltaChain.mismatch(at: 5))
      ) {
        try journal.backup(to: path)
      }
      #expect(!FileManager.default.fileExists(atPath: path))
      #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }
  }
}
