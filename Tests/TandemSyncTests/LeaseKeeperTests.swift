import PostgresTestSupport
import Synchronization
import TandemJournal
import TandemProtocol
import Testing

@testable import TandemSync

/// Two lease keepers on one PostgreSQL lease (the tests' private cluster): one takes it and
/// serves; when it stops renewing (killed) or hands over, the other takes it with the next
/// fencing epoch, and the two never may acknowledge at the same time.
@Suite("Lease keepers of standby leaders", .serialized)
struct LeaseKeeperTests {
  /// What the keeper asked its process to do.
  final class Process: Sendable {
    let recovered = Mutex<[UInt64]>([])
    let closed = Atomic<Int>(0)
    let drained = Atomic<Int>(0)
    let redirectedTo = Mutex<String?>(nil)
    /// The lines it logged as errors.
    let errors = Mutex<[String]>([])

    func actions() -> LeaseKeeper.Actions {
      LeaseKeeper.Actions(
        recover: { epoch in self.recovered.withLock { $0.append(epoch) } },
        stopAcknowledging: { _ in }, drain: { self.drained.add(1, ordering: .relaxed) },
        closeSockets: { self.closed.add(1, ordering: .relaxed) },
        redirect: { lease in self.redirectedTo.withLock { $0 = lease?.control } },
        log: { error, line in if error { self.errors.withLock { $0.append(line) } } })
    }

    /// How many times it logged that an announcement failed.
    var announcementFailures: Int {
      errors.withLock { $0.filter { $0.hasPrefix("could not announce this leader") }.count }
    }
  }

  func keeper(_ name: String, database: String, process: Process) throws -> LeaseKeeper {
    try LeaseKeeper(
      store: try PostgresLease(connection: database), leaderID: name,
      control: "inproc://\(name)-control", updates: "inproc://\(name)-updates",
      leaseLength: .milliseconds(1500), actions: process.actions())
  }

  @Test(.timeLimit(.minutes(1)))
  func aStandbyTakesOverWhenTheActiveStopsRenewing() async throws {
    let database = try PostgresTestCluster.database()
    let (first, second) = (Process(), Process())
    let a = try keeper("a", database: database, process: first)
    a.start()
    await eventually("a serves") { a.mayAcknowledge() }
    let b = try keeper("b", database: database, process: second)
    b.start()
    await eventually("b redirects to a") {
      second.redirectedTo.withLock { $0 } == "inproc://a-control"
    }
    #expect(!b.mayAcknowledge())
    #expect(a.status().role == "active" && b.status().role == "standby")
    // a is killed: its thread stops, its lease runs out.
    await a.stop()
    await eventually("b serves") { b.mayAcknowledge() }
    // By the time b may acknowledge, a (whose clock still runs) may not.
    #expect(!a.mayAcknowledge())
    #expect(first.recovered.withLock { $0 } == [1])
    #expect(second.recovered.withLock { $0 } == [2])
    #expect(b.lease()?.fencingEpoch == 2)
    await b.stop()
  }

  /// Every keeper announces its process in the shared database; the active one's lease (what
  /// `STATS` shows) lists the others as standbys, a standby's lists the others but the holder.
  @Test(.timeLimit(.minutes(1)))
  func theActiveLeadersLeaseListsTheOthersAsStandbys() async throws {
    let database = try PostgresTestCluster.database()
    let a = try keeper("a", database: database, process: Process())
    a.start()
    await eventually("a serves") { a.mayAcknowledge() }
    #expect(a.lease()?.standbys == [])
    let (b, c) = (
      try keeper("b", database: database, process: Process()),
      try keeper("c", database: database, process: Process())
    )
    b.start()
    c.start()
    await eventually("a lists b and c") { a.lease()?.standbys.map(\.id) == ["b", "c"] }
    let standbys = try #require(a.lease()?.standbys)
    #expect(standbys.map(\.control) == ["inproc://b-control", "inproc://c-control"])
    #expect(standbys.allSatisfy { $0.role == "standby" })
    // Listed within three lease lengths of their last announcement, by the database's clock.
    #expect(standbys.allSatisfy { (0..<4500).contains($0.lastSeenMillisecondsAgo) })
    await eventually("b lists c, not the holder a") { b.lease()?.standbys.map(\.id) == ["c"] }
    #expect(b.lease()?.holder == "a")
    await c.stop()
    await b.stop()
    await a.stop()
  }

  /// An announcement the database refuses (a trigger refuses a's, counting each attempt in a
  /// sequence, which a rollback does not undo) is logged once however often it is retried,
  /// leaves the lease alone, and is logged again only after one went through.
  @Test(.timeLimit(.minutes(1)))
  func aFailingAnnouncementIsLoggedOnceUntilOneGoesThrough() async throws {
    let database = try PostgresTestCluster.database()
    let process = Process()
    let a = try keeper("a", database: database, process: process)
    a.start()
    await eventually("a serves") { a.mayAcknowledge() }
    let tamper = try PostgresConnection(database)
    try tamper.run(
      script: """
        CREATE SEQUENCE refusals;
        CREATE FUNCTION refuse_a() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.id = 'a' THEN
            PERFORM nextval('refusals');
            RAISE EXCEPTION 'announcements of a refused for the test';
          END IF;
          RETURN NEW;
        END $$;
        """)
    func refuse(_ on: Bool) throws {
      try tamper.run(
        script: on
          ? "CREATE TRIGGER refuse_a BEFORE INSERT OR UPDATE ON tandem_leaders "
            + "FOR EACH ROW EXECUTE FUNCTION refuse_a()"
          : "DROP TRIGGER refuse_a ON tandem_leaders")
    }
    func refusals() throws -> Int64 {
      try tamper.exec("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM refusals")
        .int64(0, 0) ?? 0
    }
    try refuse(true)
    // A third attempt means the first two ended: the keeper tries one at a time.
    await eventually("a's announcement was refused three times") {
      ((try? refusals()) ?? 0) >= 3
    }
    #expect(process.announcementFailures == 1)
    #expect(a.mayAcknowledge())
    let b = try keeper("b", database: database, process: Process())
    b.start()
    try refuse(false)
    await eventually("a announces and lists b again") { a.lease()?.standbys.map(\.id) == ["b"] }
    #expect(process.announcementFailures == 1)
    try refuse(true)
    await eventually("a logs the refusal again") { process.announcementFailures == 2 }
    #expect(a.mayAcknowledge())
    await b.stop()
    await a.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aHandOverDrainsReleasesAndTheStandbyTakesOver() async throws {
    let database = try PostgresTestCluster.database()
    let (first, second) = (Process(), Process())
    let a = try keeper("a", database: database, process: first)
    a.start()
    await eventually("a serves") { a.mayAcknowledge() }
    let b = try keeper("b", database: database, process: second)
    b.start()
    await eventually("b watches a's lease") {
      second.redirectedTo.withLock { $0 } == "inproc://a-control"
    }
    let handedOver = a.stepDown()
    #expect(handedOver?.holder == "a" && handedOver?.fencingEpoch == 1)
    await eventually("b serves") { b.mayAcknowledge() }
    #expect(!a.mayAcknowledge())
    #expect(first.drained.load(ordering: .relaxed) == 1)
    #expect(first.closed.load(ordering: .relaxed) == 1)
    await eventually("a redirects to b") {
      first.redirectedTo.withLock { $0 } == "inproc://b-control"
    }
    #expect(a.status().role == "standby")
    await a.stop()
    await b.stop()
  }
}
