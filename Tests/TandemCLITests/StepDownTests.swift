import CommandLineKit
import Synchronization
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

/// `STEP-DOWN` through a real leader over its sockets, with the control client: a leader whose
/// ``LeaderConfiguration/stepDown`` hook hands a lease over answers `HANDING-OVER`, one without
/// the hook answers `ERROR no-lease`, and a standby's `REDIRECT` leads the request to the
/// active leader.
@Suite("STEP-DOWN through a live leader", .serialized)
struct StepDownTests {
  static func record(_ holder: String, epoch: UInt64) -> LeaseRecord {
    LeaseRecord(
      holder: holder, control: "", updates: "", fencingEpoch: epoch, remaining: .seconds(60))
  }

  @Test func aLeaderWhoseHookHandsOverAnswersHandingOver() async throws {
    let calls = Atomic<Int>(0)
    let leader = try await makeShelfLeader {
      $0.stepDown = {
        calls.add(1, ordering: .relaxed)
        return Self.record("a:41:x", epoch: 7)
      }
    }
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    let handing = try await offThePool { try client.stepDown() }
    #expect(handing.holder == "a:41:x" && handing.fencingEpoch == 7)
    #expect(handing.leader == leader.controlEndpoint)
    #expect(calls.load(ordering: .relaxed) == 1)
    await leader.stop()
  }

  @Test func aLeaderWithoutStandbysHasNoLeaseToHandOver() async throws {
    let leader = try await makeShelfLeader()
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    await #expect {
      try await offThePool { try client.stepDown() }
    } throws: { error in
      (error as? CommandFailure)?.status == .protocolError
        && "\(error)".contains("the leader at \(leader.controlEndpoint) has no lease to hand over")
        && "\(error)".contains("it runs without standby leaders")
    }
    // The raw answer is ERROR no-lease.
    let reply = try await offThePool { try client.raw([Array("STEP-DOWN".utf8)]) }
    #expect(reply.prefix(2) == [Array("ERROR".utf8), Array("no-lease".utf8)])
    await leader.stop()
  }

  @Test func aLeaderNotHoldingTheLeaseNowSaysSo() async throws {
    let leader = try await makeShelfLeader { $0.stepDown = { nil } }
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    await #expect {
      try await offThePool { try client.stepDown() }
    } throws: { error in
      (error as? CommandFailure)?.status == .protocolError
        && "\(error)".contains("does not hold the lease right now")
    }
    await leader.stop()
  }

  /// A silent leader may have begun handing over: sent on to the next endpoint, the request
  /// could reach the leader that took over, and hand the lease over a second time.
  @Test func aSilentEndpointEndsTheStepDownAndSaysAHandOverMayHaveBegun() async throws {
    let calls = Atomic<Int>(0)
    let leader = try await makeShelfLeader {
      $0.stepDown = {
        calls.add(1, ordering: .relaxed)
        return Self.record("b", epoch: 4)
      }
    }
    let client = ControlClient(
      LeaderConnection(
        leaders: ["tcp://127.0.0.1:1", leader.controlEndpoint], timeout: .seconds(1)))
    await #expect {
      try await offThePool { try client.stepDown() }
    } throws: { error in
      (error as? CommandFailure)?.status == .unavailable
        && "\(error)".contains("may have begun handing over all the same")
        && !"\(error)".contains("applied")
    }
    #expect(calls.load(ordering: .relaxed) == 0)
    await leader.stop()
  }

  @Test func aStandbysRedirectLeadsTheStepDownToTheActiveLeader() async throws {
    let leader = try await makeShelfLeader { $0.stepDown = { Self.record("a", epoch: 3) } }
    let standby = try await StandbyLeaderTests.standby(naming: leader)
    let client = ControlClient(LeaderConnection(leaders: [standby.controlEndpoint]))
    let handing = try await offThePool { try client.stepDown() }
    #expect(handing.holder == "a" && handing.leader == leader.controlEndpoint)
    #expect(standby.requestsAnswered == 1)
    await standby.stop()
    await leader.stop()
  }
}
