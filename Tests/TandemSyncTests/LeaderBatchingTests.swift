import Synchronization
import Tandem
import Testing
import ZeroMQ

@testable import TandemProtocol
@testable import TandemSync

/// Holds the leader's store for a validation hook that dispatches to it.
private final class StoreHolder: Sendable {
  let store = Mutex<Store<TestState>?>(nil)
  let dispatched = Atomic<Bool>(false)
}

@Suite("Delta grouping: one delta per action, or per batch of actions applied together")
struct LeaderBatchingTests {
  /// A leader whose validation hook, at the first forwarded action, dispatches five local
  /// actions: it runs on the leader's thread while it handles the request, so they join that
  /// request's batch, deterministically.
  private func leaderDispatchingFiveWhileBusy(
    grouping: LeaderConfiguration.DeltaGrouping
  ) async throws -> Leader<TestState> {
    let holder = StoreHolder()
    let leader = try await makeLeader { configuration in
      configuration.deltaGrouping = grouping
      configuration.validate = { _, _ in
        guard !holder.dispatched.exchange(true, ordering: .relaxed),
          let store = holder.store.withLock({ $0 })
        else { return nil }
        for _ in 0..<5 { store.dispatch(Increment()) }
        return nil
      }
    }
    holder.store.withLock { $0 = leader.store }
    return leader
  }

  /// A leader as above, a JSON follower watching its deltas, and a follower whose action 1 the
  /// leader applied after its five own: the receipt resolves at sequence 6 either way.
  private func sendDuringFiveLocalActions(
    grouping: LeaderConfiguration.DeltaGrouping
  ) async throws -> (
    leader: Leader<TestState>, watcher: JSONFollower, follower: Follower<TestState>,
    deltas: AsyncStream<(Epoch, Delta)>
  ) {
    let leader = try await leaderDispatchingFiveWhileBusy(grouping: grouping)
    let watcher = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    let deltas = try await watcher.deltas()
    let follower = try await makeFollower(leader)
    let receipt = try follower.send(Increment(by: 10))
    #expect(try await receipt.applied() == 6)
    #expect(follower.store.state.counter == 15)
    return (leader, watcher, follower, deltas)
  }

  @Test(.timeLimit(.minutes(1)))
  func groupedActionsShareOneDeltaAndKeepTheirOwnSequences() async throws {
    let (leader, watcher, follower, deltas) = try await sendDuringFiveLocalActions(
      grouping: .perBatch)
    var iterator = deltas.makeAsyncIterator()
    let (_, delta) = try #require(await iterator.next())
    #expect(delta.sequence == 6)
    #expect(delta.firstSequence == 1)
    #expect(
      delta.actions.map { "\($0.origin)" }
        == Array(repeating: "leader", count: 5) + ["\(follower.clientID)#1"])
    #expect(delta.actions.allSatisfy { $0.tag == "test.increment" })
    let statistics = try await leader.statistics()
    #expect(statistics.counters["deltasPublished"] == 1)
    #expect(statistics.counters["actionsApplied"] == 1)
    await follower.stop()
    await watcher.stop()
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func byDefaultEveryActionIsItsOwnDelta() async throws {
    let (leader, watcher, follower, deltas) = try await sendDuringFiveLocalActions(
      grouping: .perAction)
    var seen: [Delta] = []
    for await (_, delta) in deltas {
      seen.append(delta)
      if delta.sequence == 6 { break }
    }
    #expect(seen.map(\.sequence) == Array(1...6))
    #expect(seen.allSatisfy { $0.actions.count == 1 })
    #expect(seen.last?.actions.first.map { "\($0.origin)" } == "\(follower.clientID)#1")
    await follower.stop()
    await watcher.stop()
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func deltasPublishedTogetherTravelInOneMessage() async throws {
    let leader = try await leaderDispatchingFiveWhileBusy(grouping: .perAction)
    let updates = try RawSubscriber(leader.updatesEndpoint)
    defer { updates.close() }
    // The leader greets a new subscription with a heartbeat: from then on nothing is missed.
    _ = try await offThePool { try updates.nextUpdate { $0.isHeartbeat } }
    let follower = try await makeFollower(leader)
    #expect(try await follower.send(Increment(by: 10)).applied() == 6)

    let message = try await offThePool { try updates.nextUpdate { !$0.isHeartbeat } }
    guard case .deltas(_, let deltas) = message else {
      Issue.record("expected one DELTAS message, got \(message)")
      return
    }
    #expect(deltas.map(\.sequence) == Array(1...6))
    await follower.stop()
    await leader.stop()
  }
}

extension UpdateMessage {
  fileprivate var isHeartbeat: Bool {
    if case .heartbeat = self { true } else { false }
  }
}

/// A bare SUB socket on a leader's updates endpoint, to see the messages themselves.
private final class RawSubscriber: @unchecked Sendable {  // used by one thread at a time
  let context = Context()
  let socket: Socket

  init(_ endpoint: String) throws {
    socket = try Socket(context, .sub)
    try socket.set(.receiveTimeout, .seconds(10))
    try socket.subscribe(to: "")
    try socket.connect(try #require(Endpoint(parsing: endpoint)))
  }

  /// The next update message received that `matches`, skipping the others (blocking, at most
  /// ten seconds for each message).
  func nextUpdate(where matches: (UpdateMessage) -> Bool) throws -> UpdateMessage {
    while true {
      let message = try UpdateMessage(frames: socket.receiveParts())
      if matches(message) { return message }
    }
  }

  func close() { socket.close() }
}
