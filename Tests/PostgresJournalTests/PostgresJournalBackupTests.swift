import Foundation
import PostgresTestSupport
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// A PostgreSQL journal backed up into a journal file and restored into another database: the
/// same history, checked as it is copied, and a restore that never continues the backup's
/// epoch and never writes over a journal.
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

  @Test func aRestoreCopiesTheBackupIntoAnEmptyDatabaseWithANewEpoch() throws {
    let (_, journal) = try journalWithHistory()
    try withDirectory { directory in
      let path = directory + "/backup.journal"
      let backup = try journal.backup(to: path)
      // Empty tables, as a leader's first open leaves them, hold no journal yet.
      let target = try PostgresTestCluster.database()
      _ = try PostgresJournal(connection: target)
      let restore = try PostgresJournal.restore(from: path, into: target)
      #expect(restore.backupEpoch == backup.epoch && restore.epoch != backup.epoch)
      #expect(restore.lastSequence == 7 && restore.snapshotSequence == 6)
      #expect(restore.oldestSequence == 2 && restore.actionsAfterSnapshot == 1)
      #expect(restore.location == (try PostgresConnectionString(target)).description)

      let restored = try PostgresJournal(
        connection: target, configuration: .init(compactsAfterSnapshot: false))
      try Self.expectSameHistory(restored, as: journal, epoch: restore.epoch)
      // The history goes on where the backup ends, on the chain.
      try restored.append([Fixture.delta(8)])
      #expect(try restored.verify().isSound)
      // The snapshot policy's counters are the journal's own (one delta after the snapshot).
      var meta: PostgresJournalMeta?
      try restored.read { (connection) throws(JournalError) in meta = try restored.meta(connection)
      }
      #expect(meta?.deltasSinceSnapshot == 2)
    }
  }

  /// A leader's journal file moves into PostgreSQL the same way: backed up, then restored.
  @Test func aBackupOfAJournalFileIsRestoredToo() throws {
    try withDirectory { directory in
      let file = try Journal(
        path: directory + "/leader.journal",
        configuration: .init(durability: .full, compactsAfterSnapshot: false))
      try PostgresJournalInspectionTests.writeHistory(file)
      _ = try file.backup(to: directory + "/backup.journal")
      let expected = try file.recover()
      file.close()
      let target = try PostgresTestCluster.database()
      let restore = try PostgresJournal.restore(from: directory + "/backup.journal", into: target)
      #expect(restore.backupEpoch == expected.epoch && restore.epoch != expected.epoch)
      #expect(restore.oldestSequence == 1 && restore.lastSequence == 6)
      #expect(restore.snapshotSequence == 5 && restore.actionsAfterSnapshot == 1)
      let restored = try PostgresJournal(connection: target)
      let recovery = try restored.recover()
      #expect(recovery.epoch == restore.epoch)
      Self.expectSameSnapshot(recovery.snapshot, expected.snapshot)
      #expect(recovery.deltas == expected.deltas)
      #expect(recovery.ledger == expected.ledger)
      #expect(try restored.verify().isSound)
    }
  }

  @Test func aRestoreIntoADatabaseWithAJournalIsRefusedAndWritesNothing() throws {
    let (database, journal) = try journalWithHistory()
    try withDirectory { directory in
      let path = directory + "/backup.journal"
      _ = try journal.backup(to: path)
      let before = try journal.inspect(actions: 10)
      #expect {
        try PostgresJournal.restore(from: path, into: database)
      } throws: { error in
        guard case .restoreRefused(_, let reason) = error as? JournalError else { return false }
        return reason.contains("already holds a journal") && reason.contains("up to sequence 7")
          && !"\(error)".contains("drop") && "\(error)".contains("Nothing was written")
      }
      #expect(try journal.inspect(actions: 10) == before)

      // A journal that holds only its first snapshot is a journal too.
      let started = try PostgresTestCluster.database()
      try PostgresJournal(connection: started).writeSnapshot(
        sequence: 0, document: Fixture.initial, ledger: ClientLedger())
      #expect {
        try PostgresJournal.restore(from: path, into: started)
      } throws: { error in
        guard case .restoreRefused = error as? JournalError else { return false }
        return true
      }
    }
  }

  @Test func aRestoreIsRefusedWhileALeaderHoldsTheLeaseAndAllowedOnceItRanOut() throws {
    let (_, journal) = try journalWithHistory()
    try withDirectory { directory in
      let path = directory + "/backup.journal"
      _ = try journal.backup(to: path)
      let target = try PostgresTestCluster.database()
      let lease = try PostgresLease(connection: target)
      _ = try #require(
        try lease.acquire(holder: "leader-a", control: "c", updates: "u", length: .seconds(60)))
      #expect {
        try PostgresJournal.restore(from: path, into: target)
      } throws: { error in
        guard case .restoreRefused(_, let reason) = error as? JournalError else { return false }
        return reason.contains("leader-a holds the journal's lease")
      }
      let check = try PostgresConnection(target)
      #expect(try check.exec("SELECT to_regclass('tandem_meta') IS NULL").bool(0, 0) == true)

      try check.exec("UPDATE tandem_lease SET expires_at = clock_timestamp() - interval '1 s'")
      let restore = try PostgresJournal.restore(from: path, into: target)
      #expect(restore.lastSequence == 7)
    }
  }

  @Test func aRestoreOfADamagedOrMissingBackupWritesNothing() throws {
    let (_, journal) = try journalWithHistory()
    try withDirectory { directory in
      let target = try PostgresTestCluster.database()
      #expect(throws: JournalError.notFound(path: directory + "/missing")) {
        try PostgresJournal.restore(from: directory + "/missing", into: target)
      }
      let path = directory + "/backup.journal"
      _ = try journal.backup(to: path)
      let file = try SQLiteConnection(path: path, access: .readWrite)
      try file.execute("UPDATE deltas SET tag = 'dec' WHERE sequence = 6")
      #expect(throws: JournalError.corrupt(path: path, detail: DeltaChain.mismatch(at: 6))) {
        try PostgresJournal.restore(from: path, into: target)
      }
      let check = try PostgresConnection(target)
      #expect(try check.exec("SELECT to_regclass('tandem_meta') IS NULL").bool(0, 0) == true)
    }
  }
}
