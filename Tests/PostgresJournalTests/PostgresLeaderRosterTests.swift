import PostgresTestSupport
import Testing

@testable import TandemJournal

/// The leader processes sharing a journal, as they announce themselves in the tests' private
/// cluster: each lists the others seen recently, by the database's clock, and an announcement
/// forgets those gone for long.
@Suite struct PostgresLeaderRosterTests {
  func announce(
    _ lease: PostgresLease, _ id: String, role: String = "standby",
    forgettingAfter: Duration = .seconds(60)
  ) throws {
    try lease.announce(
      id: id, control: "tcp://\(id):1", updates: "tcp://\(id):2", role: role,
      forgettingAfter: forgettingAfter)
  }

  /// Sets `id`'s last announcement `seconds` in the past, as time passing would.
  func age(_ id: String, by seconds: Int, on connection: PostgresConnection) throws {
    try connection.exec(
      "UPDATE tandem_leaders SET seen_at = clock_timestamp() - $2::int8 * interval '1 second' "
        + "WHERE id = $1", [.text(id), .int8(Int64(seconds))])
  }

  @Test func eachLeaderListsTheOthersSeenRecentlyInTheOrderOfTheirIds() throws {
    let database = try PostgresTestCluster.database()
    let (a, b) = (try PostgresLease(connection: database), try PostgresLease(connection: database))
    #expect(try a.leaders(except: "a", seenWithin: .seconds(60)).isEmpty)
    try announce(a, "a", role: "active")
    try announce(b, "c")
    try announce(b, "b")
    let others = try a.leaders(except: "a", seenWithin: .seconds(60))
    #expect(others.map(\.id) == ["b", "c"])
    #expect(others.first?.control == "tcp://b:1" && others.first?.updates == "tcp://b:2")
    #expect(others.allSatisfy { $0.role == "standby" && $0.sinceSeen >= .zero })
    #expect(others.allSatisfy { $0.sinceSeen < .seconds(60) })
    #expect(try b.leaders(except: "b", seenWithin: .seconds(60)).map(\.id) == ["a", "c"])
    #expect(try b.leaders(except: "b", seenWithin: .seconds(60)).first?.role == "active")
    // Announcing again replaces the record: one row per leader, the last role.
    try announce(b, "b", role: "acquiring")
    #expect(
      try a.leaders(except: "a", seenWithin: .seconds(60)).map { "\($0.id) \($0.role)" } == [
        "b acquiring", "c standby",
      ])
  }

  @Test func aLeaderNotSeenForLongIsNotListedAndAnAnnouncementForgetsIt() throws {
    let database = try PostgresTestCluster.database()
    let lease = try PostgresLease(connection: database)
    let tamper = try PostgresConnection(database)
    for id in ["a", "b", "c"] { try announce(lease, id) }
    try age("b", by: 30, on: tamper)
    try age("c", by: 8, on: tamper)
    let listed = try lease.leaders(except: "a", seenWithin: .seconds(10))
    #expect(listed.map(\.id) == ["c"])
    #expect(listed.first.map { $0.sinceSeen >= .seconds(8) && $0.sinceSeen < .seconds(10) } == true)
    #expect(try lease.leaders(except: "a", seenWithin: .seconds(60)).map(\.id) == ["b", "c"])
    // The rows stay until an announcement forgets those older than it says: b, not c.
    try announce(lease, "a", forgettingAfter: .seconds(20))
    let rows = try tamper.exec("SELECT id FROM tandem_leaders ORDER BY id")
    #expect((0..<rows.count).map { rows.string($0, 0) } == ["a", "c"])
    // A leader's own row is refreshed, never forgotten by its announcement.
    try age("a", by: 30, on: tamper)
    try announce(lease, "a", forgettingAfter: .seconds(20))
    #expect(try lease.leaders(except: "c", seenWithin: .seconds(10)).map(\.id) == ["a"])
  }

  /// A database made before the leaders' table existed gains it when a lease is opened on it.
  @Test func openingALeaseCreatesTheLeadersTableOfAnOlderDatabase() throws {
    let database = try PostgresTestCluster.database()
    let first = try PostgresLease(connection: database)
    try announce(first, "a")
    let tamper = try PostgresConnection(database)
    try tamper.exec("DROP TABLE tandem_leaders")
    let reopened = try PostgresLease(connection: database)
    #expect(try reopened.leaders(except: "b", seenWithin: .seconds(60)).isEmpty)
    try announce(reopened, "a")
    #expect(try reopened.leaders(except: "b", seenWithin: .seconds(60)).map(\.id) == ["a"])
  }

  /// Announcing is no change of the lease: a standby waiting for one is not woken. (Were it
  /// woken, it would read the lease and announce itself, waking the others: the standbys would
  /// wake one another for good.)
  @Test func anAnnouncementWakesNoWaiter() throws {
    let database = try PostgresTestCluster.database()
    let waiter = try PostgresLease(connection: database)
    let other = try PostgresLease(connection: database)
    try announce(other, "b")
    let start = ContinuousClock.now
    try waiter.waitForChange(timeout: .milliseconds(200))
    #expect(ContinuousClock.now - start >= .milliseconds(200))
  }
}
