import Synchronization
import Tandem
import Testing

@testable import TandemSync

/// Holds the leader's store for a validation hook that dispatches to it.
private final class StoreHolder: Sendable {
  let store = Mutex<Store<TestState>?>(nil)
  let dispatched = Atomic<Bool>(false)
}

@Suite("A leader publishes the actions it applies together as one delta", .serialized)
struct LeaderBatchingTests {
  @Test(.timeLimit(.minutes(1)))
  func actionsAppliedTogetherShareOneDeltaAndKeepTheirOwnSequences() async throws {
    let holder = StoreHolder()
    // The validation hook runs on the leader's thread while it handles a request: five local
    // dispatches there join the forwarded action's batch, deterministically.
    let leader = try await makeLeader { configuration in
      configuration.validate = { _, _ in
        guard !holder.dispatched.exchange(true, ordering: .relaxed),
          let store = holder.store.withLock({ $0 })
        else { return nil }
        for _ in 0..<5 { store.dispatch(Increment()) }
        return nil
      }
    }
    holder.store.withLock { $0 = leader.store }
    let watcher = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    let deltas = try await watcher.deltas()
    let follower = try await makeFollower(leader)

    let receipt = try follower.send(Increment(by: 10))
    #expect(try await receipt.applied() == 6)
    #expect(follower.store.state.counter == 15)

    var iterator = deltas.makeAsyncIterator()
    let (_, delta) = try #require(await iterator.next())
    #expect(delta.sequence == 6)
    #expect(delta.firstSequence == 1)
    #expect(
      delta.actions.map(\.origin)
        == Array(repeating: .leader, count: 5) + [Origin(client: follower.clientID, number: 1)])
    #expect(delta.actions.allSatisfy { $0.tag == "test.increment" })
    let statistics = try await leader.statistics()
    #expect(statistics.counters["deltasPublished"] == 1)
    #expect(statistics.counters["actionsApplied"] == 1)
    await follower.stop()
    await watcher.stop()
    await leader.stop()
  }
}
