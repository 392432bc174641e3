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

    func actions() -> LeaseKeeper.Actions {
      LeaseKeeper.Actions(
        recover: { epoch in self.recovered.withLock { $0.append(epoch) } },
        stopAcknowledging: { _ in }, drain: { self.drained.add(1, ordering: .relaxed) },
        closeSockets: { self.closed.add(1, ordering: .relaxed) },
        redirect: { lease in self.redirectedTo.withLock { $0 = lease?.control } },
        log: { _, _ in })
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
    a.stepDown()
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
