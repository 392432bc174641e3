import Synchronization
import TandemProtocol
import Testing

@testable import TandemSync

/// The hook a standby leader's lease keeper answers: while it says no, the leader sends no
/// acknowledgement; the follower's action goes again once it says yes and is applied once.
@Suite("A leader that may not acknowledge", .serialized)
struct AcknowledgementGateTests {
  final class Gate: Sendable {
    let open = Atomic<Bool>(true)
  }

  @Test(.timeLimit(.minutes(1)))
  func actionsAreAppliedButNotAcknowledgedUntilTheGateOpens() async throws {
    let gate = Gate()
    let leader = try await makeLeader {
      $0.mayAcknowledge = { gate.open.load(ordering: .relaxed) }
    }
    let follower = try await makeFollower(leader) { $0.resendAfter = .milliseconds(200) }
    #expect(try await follower.send(Increment()).applied() == 1)
    gate.open.store(false, ordering: .relaxed)
    let receipt = try await follower.send(Increment())
    // Applied and committed, but neither its delta nor an ACK goes out.
    await eventually("the leader applied the action") { leader.store.state?.counter == 2 }
    await eventually("the leader withheld acknowledgements") {
      (try? await leader.statistics().counters["messagesDropped"]) ?? 0 > 0
    }
    #expect(try await follower.statistics().unanswered == 1)
    gate.open.store(true, ordering: .relaxed)
    // Sent again, answered as a duplicate: applied once.
    #expect(try await receipt.applied() == 2)
    #expect(leader.store.state?.counter == 2)
    await follower.stop()
    await leader.stop()
  }
}

@Suite("A standby leader's lease in STATS")
struct LeaseStatisticsTests {
  @Test(.timeLimit(.minutes(1)))
  func statisticsCarryTheLeaseTheKeeperReports() async throws {
    let lease = LeaderStatistics.Lease(
      role: "active", holder: "a:1:x", control: "ipc:///run/a-control", fencingEpoch: 4,
      millisecondsLeft: 900)
    let leader = try await makeLeader { $0.leaseStatus = { lease } }
    #expect(try await leader.statistics().lease == lease)
    await leader.stop()
    let plain = try await makeLeader()
    #expect(try await plain.statistics().lease == nil)
    await plain.stop()
  }
}
