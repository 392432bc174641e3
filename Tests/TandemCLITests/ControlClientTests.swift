import CommandLineKit
import StatePatch
import Tandem
import TandemCLI
import TandemSync
import Testing

@Suite("The control client against a live leader", .serialized)
struct ControlClientTests {
  @Test func snapshotDispatchAndStatisticsWork() async throws {
    let leader = try await makeShelfLeader()
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    let (_, sequence) = try await offThePool {
      try client.dispatch(tag: "shelf.add", payload: ["title": "Dune"])
    }
    #expect(sequence == 1)
    let snapshot = try await offThePool { try client.snapshot() }
    #expect(snapshot.epoch == leader.epoch)
    #expect(snapshot.sequence == 1)
    #expect(snapshot.state == ["books": ["Dune"], "count": 1])
    #expect(snapshot.stateHash == snapshot.state.canonicalHash())
    let statistics = try await offThePool { try client.statistics() }
    #expect(statistics.sequence == 1)
    #expect(statistics.counters["actionsApplied"] == 1)
    await leader.stop()
  }

  @Test func aRejectedActionFailsWithDataError() async throws {
    let leader = try await makeShelfLeader()
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    for (tag, payload) in [("shelf.burn", [:]), ("shelf.add", ["name": "x"])]
      as [(String, JSONValue)]
    {
      await #expect {
        try await offThePool { try client.dispatch(tag: tag, payload: payload) }
      } throws: { error in
        (error as? CommandFailure)?.status == .dataError
          && "\(error)".contains("rejected \(tag)")
      }
    }
    #expect(leader.store.state.count == 0)
    await leader.stop()
  }

  @Test func rawFramesGetTheLeadersErrorAndLeaveItServing() async throws {
    let leader = try await makeShelfLeader()
    let client = ControlClient(LeaderConnection(leader: leader.controlEndpoint))
    let reply = try await offThePool { try client.raw([Array("DISPATCH".utf8), [1, 2]]) }
    #expect(reply.first == Array("ERROR".utf8))
    #expect(reply.dropFirst().first == Array("malformed".utf8))
    let statistics = try await offThePool { try client.statistics() }
    #expect(statistics.counters["malformedRequests"] == 1)
    await leader.stop()
  }

  @Test func aLeaderThatIsNotThereIsUnavailable() async throws {
    let client = ControlClient(LeaderConnection(leader: "tcp://127.0.0.1:1", timeout: .seconds(1)))
    await #expect {
      try await offThePool { try client.snapshot() }
    } throws: { error in
      (error as? CommandFailure)?.status == .unavailable
    }
    await #expect {
      try await offThePool { try client.statistics() }
    } throws: { error in
      (error as? CommandFailure)?.status == .unavailable
    }
  }

  @Test func aDispatchWithoutReplySaysTheActionMayHaveBeenApplied() async throws {
    // The request may have reached a leader that answered too late: sending it again as a new
    // client could apply it twice.
    let client = ControlClient(LeaderConnection(leader: "tcp://127.0.0.1:1", timeout: .seconds(1)))
    await #expect {
      try await offThePool { try client.dispatch(tag: "counter.increment", payload: [:]) }
    } throws: { error in
      guard let failure = error as? CommandFailure else { return false }
      return failure.status == .unavailable && failure.message.contains("may have applied it")
    }
  }
}
