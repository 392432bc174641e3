import Foundation
import PostgresTestSupport
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// `tandem journal inspect` of a PostgreSQL journal: the same figures as of a file holding the
/// same history, read without writing and without the lease.
@Suite struct PostgresJournalInspectionTests {
  typealias Fixture = PostgresJournalTests

  /// Writes the same history into `journal`: a snapshot, single and grouped deltas, a ledger
  /// with a key and a forgotten client, a second snapshot and a delta after it.
  static func writeHistory(_ journal: any JournalStore) throws {
    try journal.writeSnapshot(
      sequence: 0, document: Fixture.initial, ledger: ClientLedger(), schema: Array("{}".utf8))
    let entry = ClientLedger.Entry(lastNumber: 1, lastSequence: 1, lastActive: 1, key: "k1")
    try journal.append(
      [Fixture.delta(1)], ledger: ["f1": entry], forgetting: [], forgottenThrough: 0)
    try journal.append(
      [Fixture.grouped(2, 4), Fixture.delta(5)], ledger: [:], forgetting: [],
      forgottenThrough: 0)
    try journal.writeSnapshot(
      sequence: 5, document: Fixture.initial,
      ledger: ClientLedger(restoring: ["f1": entry], forgottenThrough: 3), schema: [])
    try journal.append(
      [Fixture.delta(6, client: "f3")], ledger: [:], forgetting: [], forgottenThrough: 0)
  }

  @Test func theFiguresAreThoseOfAFileHoldingTheSameHistory() throws {
    let database = try PostgresTestCluster.database()
    try Self.writeHistory(
      try PostgresJournal(connection: database, configuration: .init(compactsAfterSnapshot: false)))
    let directory = NSTemporaryDirectory() + "tandem-inspect-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = try Journal(
      path: directory + "/leader.journal",
      configuration: .init(durability: .full, compactsAfterSnapshot: false))
    try Self.writeHistory(file)
    file.close()

    let postgres = try PostgresJournal(readingAt: database).inspect(actions: 3)
    let sqlite = try Journal(readingAt: directory + "/leader.journal").inspect(actions: 3)
    // Everything but where the records are kept, and the format, which is numbered apart.
    var alike = postgres.stats
    alike.storage = sqlite.stats.storage
    alike.formatVersion = sqlite.stats.formatVersion
    alike.epoch = sqlite.stats.epoch
    #expect(alike == sqlite.stats)
    #expect(postgres.stats.lastSequence == 6)
    #expect(postgres.stats.oldestSequence == 1)
    #expect(postgres.stats.deltaCount == 6 && postgres.stats.patchCount == 4)
    #expect(postgres.stats.snapshotSequence == 5 && postgres.stats.snapshotCount == 2)
    #expect(postgres.stats.deltasSinceSnapshot == 1 && postgres.stats.clientCount == 1)
    #expect(postgres.stats.forgottenThrough == 3)
    #expect(postgres.snapshotSchema == sqlite.snapshotSchema)
    #expect(postgres.actions == sqlite.actions)
    #expect(postgres.actions.map(\.sequence) == [4, 5, 6])
    #expect(postgres.actions.map(\.origin.key) == ["", "k1", "k1"])
    guard case .database(let figures) = postgres.stats.storage else {
      Issue.record("a PostgreSQL journal's storage is its tables, not \(postgres.stats.storage)")
      return
    }
    #expect(figures.tableBytes > 0)
    #expect(figures.lease == nil)
    #expect(postgres.location.contains("dbname=t_"))
  }

  @Test func theLeaseIsShownAndNotNeeded() throws {
    let database = try PostgresTestCluster.database()
    let lease = try PostgresLease(connection: database)
    let record = try #require(
      try lease.acquire(
        holder: "leader-a", control: "tcp://a:1", updates: "tcp://a:2", length: .seconds(60)))
    let writer = try PostgresJournal(
      connection: database, fencing: .init(holder: "leader-a", fencingEpoch: record.fencingEpoch))
    try writer.writeSnapshot(sequence: 0, document: Fixture.initial, ledger: ClientLedger())
    let inspection = try PostgresJournal(readingAt: database).inspect(actions: 0)
    guard case .database(let figures) = inspection.stats.storage else {
      Issue.record("expected the tables' figures")
      return
    }
    #expect(figures.lease?.holder == "leader-a")
    #expect(figures.lease?.fencingEpoch == record.fencingEpoch)
    #expect(figures.lease?.isExpired == false)
    #expect(inspection.actions.isEmpty)
    #expect(inspection.snapshotSchema == [])
  }

  @Test func aDatabaseWithoutAJournalIsNotFoundAndLeftWithoutTables() throws {
    let database = try PostgresTestCluster.database()
    #expect(throws: JournalError.notFound(path: try PostgresConnectionString(database).description))
    {
      try JournalLocation.postgres(connection: database).openForReading()
    }
    let check = try PostgresConnection(database)
    let tables = try check.exec(
      "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'tandem_%'")
    #expect(tables.int64(0, 0) == 0)
  }

  @Test func readingWritesNothingAndAWriteThroughAReaderTraps() async throws {
    let database = try PostgresTestCluster.database()
    let journal = try PostgresJournal(connection: database)
    try journal.writeSnapshot(sequence: 0, document: Fixture.initial, ledger: ClientLedger())
    let reader = try PostgresJournal(readingAt: database)
    #expect(reader.isReadOnly)
    _ = try reader.inspect(actions: 10)
    _ = try reader.verify()
    #expect(try journal.lastSequence == 0)
    await #expect(processExitsWith: .failure) { [database = database as String] in
      let reader = try PostgresJournal(readingAt: database)
      try reader.append([PostgresJournalTests.delta(1)])
    }
  }
}
