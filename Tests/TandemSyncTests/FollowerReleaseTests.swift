import Synchronization
import Tandem
import Testing
import ZeroMQ

@testable import TandemSync

/// Releasing the last reference to a running follower without `stop()` stops it, from any
/// thread, its own I/O thread included: the I/O loop is let go (its thread ends, its sockets
/// close) and the store the caller may keep stays usable with the last state.
@Suite("Releasing a running follower without stop()", .timeLimit(.minutes(1)))
struct FollowerReleaseTests {
  @Test func aFollowerReleasedByATaskStopsAndLetsItsLoopGo() async throws {
    let leader = try await makeLeader(state: TestState(counter: 7))
    var follower: Follower<TestState>? = try await makeFollower(leader)
    let store = try #require(follower).store
    weak let loop = try #require(follower?.executor as? IOLoop)
    #expect(loop != nil)
    follower = nil
    await eventually("the released follower's I/O loop is gone") { loop == nil }
    // The replica store is the caller's now: it keeps the last state and forwards nothing.
    store.dispatch(Increment())
    #expect(store.state.counter == 7)
    await leader.stop()
  }

  @Test func aJSONFollowerReleasedByATaskStopsAndLetsItsLoopGo() async throws {
    let leader = try await makeLeader()
    var follower: JSONFollower? = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    weak let loop = try #require(follower?.executor as? IOLoop)
    #expect(loop != nil)
    follower = nil
    await eventually("the released follower's I/O loop is gone") { loop == nil }
    await leader.stop()
  }

  @Test func aFollowerReleasedOnItsOwnExecutorStopsWithoutTrappingOrHanging() async throws {
    let leader = try await makeLeader()
    try await expectReleaseOnItsOwnExecutorStops(Holder(try await makeFollower(leader))) {
      $0.executor
    }
    await leader.stop()
  }

  @Test func aJSONFollowerReleasedOnItsOwnExecutorStopsWithoutTrappingOrHanging() async throws {
    let leader = try await makeLeader()
    let holder = Holder(
      try await JSONFollower(configuration: FollowerConfiguration(leader: leader.controlEndpoint)))
    try await expectReleaseOnItsOwnExecutorStops(holder) { $0.executor }
    await leader.stop()
  }

  @Test func aFollowerReleasedByTheSubscriberItNotifiesStopsWithoutTrappingOrHanging()
    async throws
  {
    let leader = try await makeLeader()
    let holder = Holder(try await makeFollower(leader))
    let releasedOnLoop = Atomic(false)
    // Notified on the follower's I/O thread, in the middle of applying a delta.
    let subscriber = StateLog<Int> { counter in
      guard counter > 0, let follower = holder.take() else { return }
      let onLoop = (follower.executor as? IOLoop)?.inLoopThread ?? false
      releasedOnLoop.store(onLoop, ordering: .releasing)
    }
    weak var loop: IOLoop?
    do {
      let follower = try #require(holder.object)
      loop = follower.executor as? IOLoop
      follower.store.subscribe(subscriber) { $0.select(\.counter) }
    }
    leader.store.dispatch(Increment())
    await eventually("the subscriber released the follower") { holder.object == nil }
    let onLoop = releasedOnLoop.load(ordering: .acquiring)
    #expect(onLoop)
    await eventually("the released follower's I/O loop is gone") { loop == nil }
    await leader.stop()
  }
}

/// Releases the follower in `holder` (its last reference) on its own I/O thread, the `executor`
/// it has, from a task that prefers it, and expects the release to run there, the loop to take
/// no more work, and the loop to go.
private func expectReleaseOnItsOwnExecutorStops<Object>(
  _ holder: Holder<Object>, executor: (Object) -> any TaskExecutor
) async throws {
  weak let loop = try #require(holder.object.map(executor) as? IOLoop)
  let (onLoop, loopTookWork) = await withTaskExecutorPreference(try #require(loop)) {
    let onLoop = loop?.inLoopThread ?? false
    _ = holder.take()
    return (onLoop, loop?.execute { _ in } ?? false)
  }
  #expect(onLoop)
  #expect(!loopTookWork, "the released follower's loop still takes work")
  await eventually("the released follower's I/O loop is gone") { loop == nil }
}
