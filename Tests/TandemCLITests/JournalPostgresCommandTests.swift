import Foundation
import PostgresTestSupport
import TandemJournal
import TandemSync
import Testing

/// `tandem journal inspect`, `verify`, `backup` and `restore` on PostgreSQL journals (the tests'
/// private cluster), given as a `postgres://` URL with a password, which is never shown.
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

  @Test func restoreCopiesABackupIntoANewDatabaseAndNeverOverAJournal() async throws {
    let (_, url) = try await shelfDatabase()
    try await withDirectory { directory in
      let file = directory + "/backup.journal"
      _ = try await TandemProcess.run(["journal", "backup", "--db", url, "--to", file])
      let target = PostgresTestCluster.url(
        try PostgresTestCluster.database(), password: Self.password)

      let restored = try await TandemProcess.run(
        ["journal", "restore", "--from", file, "--db", target])
      #expect(restored.status == 0, "\(restored.error)")
      expectNoPassword(restored)
      #expect(restored.output.contains("restored \(file) into "))
      #expect(restored.output.contains("the backup holds sequences up to 3"))
      #expect(restored.output.contains("after the backup was taken are not in it and are lost"))
      let original = try object(
        try await TandemProcess.run(["journal", "inspect", "--db", url, "--json"]).output)
      let copy = try object(
        try await TandemProcess.run(["journal", "inspect", "--db", target, "--json"]).output)
      #expect(copy["lastSequence"] as? Int == 3)
      #expect(copy["epoch"] as? String != original["epoch"] as? String)
      #expect(restored.output.contains("new epoch \(copy["epoch"] as? String ?? "?")"))

      // A second restore finds a journal there: refused, nothing written.
      let refused = try await TandemProcess.run(
        ["journal", "restore", "--from", file], environment: ["TANDEM_JOURNAL_URL": target])
      #expect(refused.status == 1)
      #expect(refused.error.contains("already holds a journal"))
      #expect(refused.error.contains("Nothing was written."))
      expectNoPassword(refused)
      let unchanged = try object(
        try await TandemProcess.run(["journal", "inspect", "--db", target, "--json"]).output)
      #expect(unchanged["epoch"] as? String == copy["epoch"] as? String)

      let toAFile = try await TandemProcess.run(
        ["journal", "restore", "--from", file, "--db", directory + "/leader.journal"])
      #expect(toAFile.status == 69)
      #expect(toAFile.error.contains("move the backup over it"))
      #expect(!FileManager.default.fileExists(atPath: directory + "/leader.journal"))

      let missing = try await TandemProcess.run(
        ["journal", "restore", "--from", directory + "/missing", "--db", target])
      #expect(missing.status == 66)
      #expect(missing.error.contains("no journal at \(directory)/missing: check the --from path"))
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

  @Test func theHelpOfBackupAndRestoreGivesBothRestoreProcedures() async throws {
    for command in ["backup", "restore"] {
      let help = try await TandemProcess.run(["journal", command, "--help"])
      #expect(help.status == 0)
      for text in [
        "--db LOCATION", "TANDEM_JOURNAL_URL", "Passwords are never printed",
        "To restore a journal file", "To restore a PostgreSQL journal",
        "tandem journal restore --from FILE --db postgres://", "new epoch", "Exit status",
        "\n  66 ", "\n  69 ",
      ] {
        #expect(help.output.contains(text), "journal \(command) --help lacks \(text)")
      }
    }
    let restore = try await TandemProcess.run(["journal", "restore", "--help"])
    #expect(restore.output.contains("--from FILE"))
    #expect(restore.output.contains("no leader may hold its lease"))
    let group = try await TandemProcess.run(["journal", "--help"])
    #expect(group.output.contains("restore  Restore a backup into a PostgreSQL database"))
  }
}
