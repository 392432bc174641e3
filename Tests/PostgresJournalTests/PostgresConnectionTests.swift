import PostgresTestSupport
import Testing

@testable import TandemJournal

/// The libpq wrapper against the tests' private cluster: binary parameters and results,
/// transactions, notifications, errors with their SQLSTATE, and connection strings that never
/// show their password.
@Suite struct PostgresConnectionTests {
  @Test func bindsAndReadsInt8ByteaAndTextInBinaryForm() throws {
    let connection = try PostgresConnection(try PostgresTestCluster.database())
    let cases: [(Int64, [UInt8], String)] = [
      (0, [], ""), (-1, [0], "é"), (.min, [0xff, 0, 0x7f], "a\tb"), (.max, Array(0...255), "x"),
    ]
    for (number, bytes, text) in cases {
      let result = try connection.exec(
        "SELECT $1::int8, $2::bytea, $3::text, length($2), $1 + 0 = $1",
        [.int8(number), .bytea(bytes), .text(text)])
      #expect(result.int64(0, 0) == number)
      #expect(result.bytes(0, 1) == bytes)
      #expect(result.string(0, 2) == text)
      #expect(result.int64(0, 3) == Int64(bytes.count))
      #expect(result.bool(0, 4) == true)
    }
    let null = try connection.exec("SELECT $1::bytea IS NULL, NULL::int8", [.null])
    #expect(null.bool(0, 0) == true)
    #expect(null.int64(0, 1) == nil)
  }

  @Test func aFailedStatementKeepsItsSQLStateAndMessage() throws {
    let connection = try PostgresConnection(try PostgresTestCluster.database())
    try connection.exec("CREATE TABLE t (k int8 PRIMARY KEY)")
    try connection.exec("INSERT INTO t VALUES ($1)", [.int8(1)])
    let error = #expect(throws: PostgresError.self) {
      try connection.exec("INSERT INTO t VALUES ($1)", [.int8(1)])
    }
    #expect(error?.sqlState == "23505")
    #expect(error?.message.contains("duplicate key") == true)
    #expect(error?.call.hasPrefix("INSERT INTO t") == true)
    #expect(error?.isConnectionFailure == false)
    let syntax = #expect(throws: PostgresError.self) { try connection.exec("SELEC 1") }
    #expect(syntax?.sqlState == "42601")
  }

  @Test func aTransactionThatThrowsLeavesNothing() throws {
    let connection = try PostgresConnection(try PostgresTestCluster.database())
    try connection.exec("CREATE TABLE t (k int8)")
    struct Refusal: Error {}
    #expect(throws: Refusal.self) {
      try connection.transaction(wrap: { _ in Refusal() }) { () throws(Refusal) in
        _ = try? connection.exec("INSERT INTO t VALUES (1)")
        throw Refusal()
      }
    }
    try connection.transaction(wrap: { $0 }) { () throws(PostgresError) in
      try connection.exec("INSERT INTO t VALUES (2)")
    }
    let rows = try connection.exec("SELECT k FROM t")
    #expect(rows.count == 1)
    #expect(rows.int64(0, 0) == 2)
  }

  @Test func notificationsWakeAListenerAndATimeoutReturnsEmpty() throws {
    let database = try PostgresTestCluster.database()
    let listener = try PostgresConnection(database)
    let notifier = try PostgresConnection(database)
    try listener.listen("tandem_test")
    #expect(try listener.waitForNotifications(timeout: .milliseconds(20)).isEmpty)
    try notifier.exec("NOTIFY tandem_test")
    // Queued on the listener's connection: the wait returns it however long it may wait.
    #expect(try listener.waitForNotifications(timeout: .seconds(120)) == ["tandem_test"])
  }

  @Test func connectionStringsAreDescribedWithoutTheirPassword() throws {
    for raw in [
      "postgres://leader:s3cret@db.internal:5433/orders?sslmode=disable",
      "host=db.internal user=leader password=s3cret dbname=orders",
      "postgresql://leader@db.internal/orders?password=s3cret",
    ] {
      let string = try PostgresConnectionString(raw)
      #expect(!string.description.contains("s3cret"), "\(string)")
      #expect(string.description.contains("password=***"), "\(string)")
      #expect(string.description.contains("host=db.internal"), "\(string)")
    }
    #expect(throws: PostgresError.self) { try PostgresConnectionString("host='unterminated") }
  }

  @Test func locationsAreReadAsFilesOrDatabasesByTheirForm() {
    let databases = [
      "postgres://leader@db.internal/orders", "postgresql:///orders?host=/run/pg",
      "host=db.internal dbname=orders", "dbname=orders",
    ]
    for text in databases {
      #expect(JournalLocation(parsing: text) == .postgres(connection: text), "\(text)")
    }
    let files = [
      "/var/lib/tandem/leader.journal", "leader.journal", "/tmp/a=b.journal", "x = y",
    ]
    for text in files {
      #expect(JournalLocation(parsing: text) == .sqlite(path: text), "\(text)")
    }
    #expect(JournalLocation(parsing: "sqlite:dbname=odd") == .sqlite(path: "dbname=odd"))
  }

  @Test func aRefusedConnectionSaysWhereWithoutThePassword() throws {
    let address = try PostgresTestCluster.address()
    let raw =
      "host=\(address.directory) port=\(address.port) user=nobody_here password=s3cret "
      + "dbname=postgres"
    let error = #expect(throws: PostgresError.self) { try PostgresConnection(raw) }
    #expect(error?.call.contains("user=nobody_here") == true)
    #expect(error.map { "\($0)" }?.contains("s3cret") == false)
    #expect(error?.message.contains("nobody_here") == true)
  }
}
