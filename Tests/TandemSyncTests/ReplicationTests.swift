import StatePatch
import Synchronization
import Tandem
import Testing

@testable import TandemSync

#if canImport(Glibc)
  import Glibc
#endif

/// Records every state a subscriber is notified of.
final class StateLog<Value: Sendable>: StoreSubscriber, Sendable {
  private let values = Mutex<[Value]>([])
  private let onValue: @Sendable (Value) -> Void

  init(onValue: @escaping @Sendable (Value) -> Void = { _ in }) {
    self.onValue = onValue
  }

  var all: [Value] { values.withLock { $0 } }

  func newState(state: Value) {
    values.withLock { $0.append(state) }
    onValue(state)
  }
}

@Suite("Replication: state flows from the leader to followers", .serialized)
struct ReplicationTests {
  @Test func aFollowerJoinsWithTheLeadersStateAndFollowsIt() async throws {
    let leader = try await makeLeader(state: TestState(counter: 41))
    let follower = try await makeFollower(leader)
    #expect(follower.store.state.counter == 41)
    for _ in 0..<100 { leader.store.dispatch(Increment()) }
    await eventually("the follower shows 141") { follower.store.state.counter == 141 }
    #expect(follower.store.state == leader.store.state)
    await follower.stop()
    await leader.stop()
  }

  @Test(arguments: 0..<10)
  func joiningWhileTheLeaderIsBusyLosesAndRepeatsNothing(round: Int) async throws {
    let leader = try await makeLeader()
    let busy = Task.detached {
      for _ in 0..<3000 { leader.store.dispatch(Increment()) }
    }
    let follower = try await makeFollower(leader)
    let seen = StateLog<Int>()
    follower.store.subscribe(seen) { $0.select(\.counter) }
    await busy.value
    await eventually("the follower shows 3000") { follower.store.state.counter == 3000 }
    // The follower's thread sets the store's state before it notifies the subscribers, so the
    // test can see 3000 in the store while the subscriber's last notification is in flight.
    await eventually("the subscriber saw 3000") { seen.all.last == 3000 }
    let values = seen.all
    #expect(values.last == 3000)
    #expect(
      zip(values, values.dropFirst()).allSatisfy { $1 == $0 + 1 },
      "round \(round): \(values.prefix(5))...")
    await follower.stop()
    await leader.stop()
  }

  @Test func gapsFromHighWaterMarkDropsAreRepairedFromTheBacklog() async throws {
    let leader = try await makeLeader { $0.updatesHighWaterMark = 10 }
    let follower = try await makeFollower(leader) { $0.updatesHighWaterMark = 10 }
    try await floodWhileStalled(leader, follower, deltas: 2000, bytes: 8192)
    let statistics = try await follower.statistics()
    #expect(statistics.gapsRepaired + statistics.resyncs > 0)
    #expect(follower.store.state == leader.store.state)
    await follower.stop()
    await leader.stop()
  }

  @Test func aGapBeyondTheBacklogIsRepairedWithASnapshot() async throws {
    let leader = try await makeLeader {
      $0.updatesHighWaterMark = 10
      $0.backlogCount = 5
    }
    let follower = try await makeFollower(leader) { $0.updatesHighWaterMark = 10 }
    try await floodWhileStalled(leader, follower, deltas: 2000, bytes: 8192)
    #expect(try await follower.statistics().resyncs > 0)
    await follower.stop()
    await leader.stop()
  }

  @Test func aRestartedLeaderWithANewEpochForcesAResync() async throws {
    let directory = try LeaderDirectory()
    let control = directory.control
    let updates = directory.updates
    let first = try await makeLeader(state: TestState(counter: 500)) {
      $0.control = control
      $0.updates = updates
    }
    let follower = try await makeFollower(first)
    #expect(follower.store.state.counter == 500)
    await first.stop()
    let second = try await makeLeader(state: TestState(counter: 7)) {
      $0.control = control
      $0.updates = updates
    }
    #expect(second.epoch != first.epoch)
    await eventually("the follower takes the new leader's state") {
      follower.store.state.counter == 7
    }
    second.store.dispatch(Increment())
    await eventually("the follower follows the new leader") { follower.store.state.counter == 8 }
    #expect(try await follower.statistics().epoch == second.epoch.description)
    await follower.stop()
    await second.stop()
  }

  @Test func aFollowerWithAnotherSchemaIsRefusedWithAClearMessage() async throws {
    let leader = try await makeLeader()
    await #expect {
      _ = try await makeFollower(leader) { $0.schemaVersion = "2" }
    } throws: { error in
      guard case .refused(let code, let message) = error as? FollowerError else { return false }
      return code == .schema && message.contains("the schema version")
        && message.contains("version 2") && message.contains("version 1")
    }
    await leader.stop()
  }

  @Test func aFollowerWithFewerActionsIsAdmitted() async throws {
    let leader = try await makeLeader()
    let fewer = ActionRegistry().registering(Increment.self, tag: "test.increment")
    let follower = try await makeFollower(leader, registry: fewer)
    #expect(follower.schema != leader.schema)
    _ = try await follower.send(Increment()).applied()
    #expect(follower.store.state.counter == 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func manyFollowersConverge() async throws {
    let leader = try await makeLeader()
    var followers: [Follower<TestState>] = []
    for _ in 0..<8 { followers.append(try await makeFollower(leader)) }
    for value in 0..<300 { leader.store.dispatch(Record(client: "leader", value: value)) }
    for follower in followers {
      await eventually("every follower has 300 records") {
        follower.store.state.log["leader"]?.count == 300
      }
      #expect(follower.store.state == leader.store.state)
      await follower.stop()
    }
    await leader.stop()
  }

  @Test func theJSONFollowerHoldsTheCanonicalJSONOfTheTypedState() async throws {
    let leader = try await makeLeader()
    let typed = try await makeFollower(leader)
    let json = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    for value in 0..<50 {
      leader.store.dispatch(Record(client: "a\(value % 3)", value: value))
      leader.store.dispatch(Increment(by: value))
    }
    try await eventually("both followers are at 100") {
      let typedAt = try await typed.statistics().sequence
      let jsonAt = try await json.statistics().sequence
      return typedAt == 100 && jsonAt == 100
    }
    var encoder = StateEncoder()
    #expect(try encoder.encode(typed.store.state) == json.store.state)
    await typed.stop()
    await json.stop()
    await leader.stop()
  }
}

/// Stalls `follower`'s I/O thread (in a subscriber), publishes `deltas` deltas of `bytes` bytes
/// each, far more than its socket buffers and high-water marks hold, then an increment, lets
/// the follower go, and waits until its replica shows the increment (counter 2): it can only
/// get there by repairing the gap.
func floodWhileStalled(
  _ leader: Leader<TestState>, _ follower: Follower<TestState>, deltas: Int, bytes: Int
) async throws {
  let stall = Stall()
  let log = StateLog<Int>(onValue: { _ in stall.waitIfClosed() })
  follower.store.subscribe(log) { $0.select(\.counter) }
  stall.close()
  leader.store.dispatch(Increment())
  await eventually("the follower's thread is stalled") { stall.isWaiting }
  for index in 0..<deltas {
    leader.store.dispatch(SetTitle(title: String(repeating: "\(index % 10)", count: bytes)))
  }
  leader.store.dispatch(Increment())
  stall.open()
  await eventually("the follower shows 2") { follower.store.state.counter == 2 }
}

/// Holds a follower's I/O thread inside a subscriber until the test opens it.
final class Stall: Sendable {
  private let state = Mutex<(closed: Bool, waiting: Bool)>((false, false))

  func close() { state.withLock { $0.closed = true } }
  func open() { state.withLock { $0.closed = false } }
  var isWaiting: Bool { state.withLock { $0.waiting } }

  /// Blocks the calling thread while the stall is closed (a bounded wait: at most 60 s, a
  /// guard against a hang only; the tests open it as soon as they have flooded the follower,
  /// which on a loaded machine can take more than the 10 s this used to allow).
  func waitIfClosed() {
    let deadline = ContinuousClock.now + .seconds(60)
    while state.withLock({ $0.closed }) && ContinuousClock.now < deadline {
      state.withLock { $0.waiting = true }
      usleep(1000)
    }
    state.withLock { $0.waiting = false }
  }
}
