import Foundation
import Synchronization
import Tandem
import Testing

@testable import TandemSync

/// Releasing the last reference to a running leader without `stop()` stops it, from any thread,
/// its own I/O thread included: it journals what its store applied, closes its journal, and lets
/// its store go (or keeps serving it as a local store, when the caller holds it).
extension DurableLeaderTests {
  @Test(.timeLimit(.minutes(1)))
  func aLeaderReleasedWithoutStopJournalsWhatItAppliedAndClosesItsJournal() async throws {
    let directory = try LeaderDirectory()
    var leader: Leader<TestState>? = try await makeDurableLeader(directory)
    let store = try #require(leader).store
    store.dispatch(Increment())
    leader = nil
    // The leader stops on its I/O thread, after the release returned: its journal closes soon.
    var restarted: Leader<TestState>?
    await eventually("the released leader's journal is closed") {
      restarted = try? await makeDurableLeader(directory)
      return restarted != nil
    }
    #expect(restarted?.store.state.counter == 1)
    await restarted?.stop()
    // The store stays usable as a local store.
    store.dispatch(Increment())
    #expect(store.state.counter == 2)
  }

  @Test(.timeLimit(.minutes(1)))
  func aLeaderAndItsStoreReleasedWithoutStopAreFreed() async throws {
    var leader: Leader<TestState>? = try await makeLeader()
    weak let store = leader?.store
    #expect(store != nil)
    leader = nil
    await eventually("the released leader's store is freed") { store == nil }
  }

  @Test(.timeLimit(.minutes(1)))
  func aLeaderReleasedOnItsOwnThreadStopsWithoutTrappingOrHanging() async throws {
    let holder = Holder(try await makeLeader())
    let releasedOn = Mutex<String?>(nil)
    // Notified on the leader's I/O thread, which applies the follower's action.
    let subscriber = StateLog<Int> { counter in
      guard counter > 0, holder.take() != nil else { return }
      releasedOn.withLock { $0 = currentThreadName() }
    }
    weak var store: Store<TestState>?
    let follower: Follower<TestState>
    do {
      let leader = try #require(holder.object)
      store = leader.store
      leader.store.subscribe(subscriber) { $0.select(\.counter) }
      follower = try await makeFollower(leader)
    }
    _ = try follower.send(Increment())
    await eventually("the subscriber released the leader") { holder.object == nil }
    #expect(releasedOn.withLock { $0 } == "tandem-leader")
    await eventually("the released leader's store is freed") { store == nil }
    await follower.stop()
  }
}

/// The calling thread's name, as the I/O loop set it (`/proc/thread-self/comm` on Linux).
private func currentThreadName() -> String? {
  #if os(Linux)
    let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
    return name?.trimmingCharacters(in: .newlines)
  #else
    var buffer = [CChar](repeating: 0, count: 64)
    guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  #endif
}
