import Foundation
import PostgresTestSupport
import TandemJournal
import TandemSync
import Testing

/// `tandem journal inspect`, `verify` and `backup` on PostgreSQL journals (the tests' private
/// cluster), given as a `postgres://` URL with a password, which is never shown.
@Suite("tandem journal on a PostgreSQL journal", .serialized)
struct JournalPostgresCommandTests {
  static let password = "s3cret-pw"

  /// A new database whose journal a shelf leader wrote three books into, and its URL with a
  /// password.
  func shelfDatabase() async throws -> (connection: String, url: String) {
    let connection = try PostgresTestCluster.database()
    let leader = try await makeShelfLeader {
      $0.journalLocation = .postgres(connection: connection)
    }
    for title in ["Dune", "Emma", "Ubik"] { leader.store.dispatch(AddBook(title: title)) }
    await leader.stop()
    return (connection, PostgresTestCluster.url(connection, password: Self.password))
  }

  /// A temporary directory for the test, removed after `body`.
  func withDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let directory = NSTemporaryDirectory() + "tandem-pg-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
  }

  /// The JSON object `text` holds (the test fails when it is not one).
  func object(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws
    -> [String: Any]
  {
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(parsed as? [String: Any], sourceLocation: sourceLocation)
  }

  /// Expects `run` to have shown no password.
  func expectNoPassword(_ run: TandemProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      !run.output.contains(Self.password) && !run.error.contains(Self.password),
      "\(run.output)\(run.error)", sourceLocation: sourceLocation)
  }

  @Test func inspectVerifyAndBackupReadTheJournalWithoutShowingThePassword() async throws {
    let (_, url) = try await shelfDatabase()
    let inspected = try await TandemProcess.run(["journal", "inspect", "--db", url])
    #expect(inspected.status == 0, "\(inspected.error)")
    expectNoPassword(inspected)
    // Labels padded to the longest, "since snapshot", and two spaces.
    for (label, value) in [
      ("format", "version 1 (PostgreSQL tables)"), ("last sequence", "3"),
      ("state schema", "TandemCLITests.Shelf {books: [String], count: Int}"),
      ("lease", "never taken"),
    ] {
      let line = label + String(repeating: " ", count: 16 - label.count) + value
      #expect(inspected.output.contains("\n" + line + "\n"), "\(inspected.output)")
    }
    #expect(inspected.output.contains("password=***"))

    let json = try await TandemProcess.run(
      ["journal", "inspect", "--json", "--actions", "2"], environment: ["TANDEM_JOURNAL_URL": url])
    #expect(json.status == 0, "\(json.error)")
    expectNoPassword(json)
    let report = try object(json.output)
    #expect(report["backend"] as? String == "postgres")
    #expect(report["lastSequence"] as? Int == 3)
    #expect(report["lease"] is NSNull)
    #expect((report["actions"] as? [Any])?.count == 2)
    #expect(report["stateSchema"] is [String: Any])

    let verified = try await TandemProcess.run(["journal", "verify", "--db", url])
    #expect(verified.status == 0, "\(verified.error)")
    #expect(verified.output.hasPrefix("ok: "))
    expectNoPassword(verified)

    try await withDirectory { directory in
      let file = directory + "/backup.journal"
      let backedUp = try await TandemProcess.run(
        ["journal", "backup", "--db", url, "--to", file])
      #expect(backedUp.status == 0, "\(backedUp.error)")
      #expect(backedUp.output.contains("to \(file): epoch \(report["epoch"] as? String ?? "?")"))
      #expect(backedUp.output.contains("sequence 3"))
      expectNoPassword(backedUp)
      let fileVerified = try await TandemProcess.run(["journal", "verify", "--db", file])
      #expect(fileVerified.status == 0, "\(fileVerified.output)\(fileVerified.error)")
      let fileReport = try object(
        try await TandemProcess.run(["journal", "inspect", "--db", file, "--json"]).output)
      #expect(fileReport["backend"] as? String == "sqlite")
      #expect(fileReport["lastSequence"] as? Int == 3)
      #expect(fileReport["stateSchema"] as? NSDictionary == report["stateSchema"] as? NSDictionary)

      let again = try await TandemProcess.run(["journal", "backup", "--db", url, "--to", file])
      #expect(again.status == 1)
      #expect(again.error.contains("a backup never overwrites a file"))
    }
  }

  @Test func aDatabaseWithoutAJournalEndsWithStatus66AndGainsNoTables() async throws {
    let connection = try PostgresTestCluster.database()
    let url = PostgresTestCluster.url(connection, password: Self.password)
    try await withDirectory { directory in
      for command in [["inspect"], ["verify"], ["compact"], ["backup", "--to", directory + "/b"]] {
        let run = try await TandemProcess.run(["journal"] + command + ["--db", url])
        #expect(run.status == 66, "\(command): \(run.error)")
        #expect(run.error.contains("no journal in "), "\(run.error)")
        expectNoPassword(run)
      }
      #expect(!FileManager.default.fileExists(atPath: directory + "/b"))
    }
    let tables = try PostgresConnection(connection).exec(
      "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'tandem_%'")
    #expect(tables.int64(0, 0) == 0)
  }
}
