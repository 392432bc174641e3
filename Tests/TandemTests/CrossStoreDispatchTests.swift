import Foundation
import Synchronization
import Testing

@testable import Tandem

/// Stores whose subscribers and reducers dispatch to each other while other threads drain them.
@Suite struct CrossStoreDispatchTests {
  @Test func subscribersDispatchingToEachOthersStoreFromTwoThreadsDoNotDeadlock() {
    // Each thread drains its store; each store's subscriber, notified on that thread, waits
    // until the other store's subscriber is notified too, then dispatches to the other store:
    // each store is being drained by the other thread at that moment.
    for iteration in 0..<200 {
      let first = Store(reducer: counterInPlaceReducer, state: CounterState())
      let second = Store(reducer: counterInPlaceReducer, state: CounterState())
      let bothNotified = Rendezvous(parties: 2)
      let firstCounters = Recorder<Int> { counter in
        guard counter == 1 else { return }
        bothNotified.arrive()
        second.dispatch(Add(amount: 100))
      }
      let secondCounters = Recorder<Int> { counter in
        guard counter == 1 else { return }
        bothNotified.arrive()
        first.dispatch(Add(amount: 100))
      }
      first.subscribe(firstCounters) { $0.select(\.counter) }
      second.subscribe(secondCounters) { $0.select(\.counter) }
      let finished = runOnThreads(
        { first.dispatch(Increment()) }, { second.dispatch(Increment()) })
      #expect(finished, "the two threads deadlocked in iteration \(iteration)")
      guard finished else { return }
      #expect(first.state.counter == 101)
      #expect(second.state.counter == 101)
      #expect(firstCounters.values == [0, 1, 101])
      #expect(secondCounters.values == [0, 1, 101])
    }
  }

  @Test func subscribersForwardingEveryChangeToEachOthersStoreSeeEveryStateInOrder() {
    // Two threads dispatch to their own store; every counter a store's subscriber sees becomes
    // the other store's title, dispatched from whichever thread drains the store at the time.
    let count = 2000
    for iteration in 0..<10 {
      let first = Store(reducer: counterInPlaceReducer, state: CounterState())
      let second = Store(reducer: counterInPlaceReducer, state: CounterState())
      let firstForwarder = Recorder<Int> { second.dispatch(SetTitle(title: "\($0)")) }
      let secondForwarder = Recorder<Int> { first.dispatch(SetTitle(title: "\($0)")) }
      let firstTitles = Recorder<String>()
      let secondTitles = Recorder<String>()
      first.subscribe(firstTitles) { $0.select(\.title) }
      second.subscribe(secondTitles) { $0.select(\.title) }
      first.subscribe(firstForwarder) { $0.select(\.counter) }
      second.subscribe(secondForwarder) { $0.select(\.counter) }
      let finished = runOnThreads(
        { for _ in 0..<count { first.dispatch(Increment()) } },
        { for _ in 0..<count { second.dispatch(Increment()) } })
      #expect(finished, "the two threads deadlocked in iteration \(iteration)")
      guard finished else { return }
      // Every action applied once, and the other store's titles in the order they were seen.
      let expectedTitles = ["counter", "0"] + (1...count).map { "\($0)" }
      #expect(first.state.counter == count)
      #expect(second.state.counter == count)
      #expect(firstTitles.values == expectedTitles)
      #expect(secondTitles.values == expectedTitles)
    }
  }

  @Test func aReducerDispatchingToAStoreWhoseSubscriberReadsItsStateDoesNotDeadlock() {
    // The first store's reducer dispatches to the second store while the second store's
    // subscriber, on the thread draining it, reads the first store's state (which waits for
    // the reducer to finish).
    for iteration in 0..<100 {
      let reference = StoreReference()
      let bothStarted = Rendezvous(parties: 2)
      let second = Store(reducer: counterInPlaceReducer, state: CounterState())
      let first = Store<CounterState>(
        reducer: { state, action in
          if action is Increment {
            bothStarted.arrive()
            second.dispatch(Add(amount: 100))
          }
          counterInPlaceReducer(state: &state, action: action)
        }, state: CounterState())
      reference.store = first
      let firstCountersSeen = Recorder<Int>()
      let reader = Recorder<Int> { counter in
        guard counter == 1, let first = reference.store else { return }
        bothStarted.arrive()
        firstCountersSeen.newState(state: first.state.counter)
      }
      second.subscribe(reader) { $0.select(\.counter) }
      let finished = runOnThreads(
        { first.dispatch(Increment()) }, { second.dispatch(Increment()) })
      #expect(finished, "the two threads deadlocked in iteration \(iteration)")
      guard finished else { return }
      // The read waited for the reduction in progress, and saw its result.
      #expect(firstCountersSeen.values == [1])
      #expect(first.state.counter == 1)
      #expect(second.state.counter == 101)
    }
  }

  @Test func aDispatchFromADrainerToAStoreAnotherThreadDrainsIsAppliedThereAfterItsRound() {
    let first = Store(reducer: counterInPlaceReducer, state: CounterState())
    let second = Store(reducer: counterInPlaceReducer, state: CounterState())
    let secondRoundOpen = Atomic<Bool>(false)
    let dispatched = Atomic<Bool>(false)
    let secondDrainer = Mutex<ThreadIdentity?>(nil)
    let notifiers = Mutex<[Int: ThreadIdentity]>([:])
    // The second store's subscriber holds the round of its first increment open until the
    // first store's subscriber has dispatched to the second store (a bounded wait).
    let secondCounters = Recorder<Int> { counter in
      notifiers.withLock { $0[counter] = ThreadIdentity.current }
      guard counter == 1 else { return }
      secondRoundOpen.store(true, ordering: .releasing)
      waitOnThisThread { dispatched.load(ordering: .acquiring) }
    }
    let secondCountersAfterDispatch = Recorder<Int>()
    let firstCounters = Recorder<Int> { counter in
      guard counter == 1 else { return }
      waitOnThisThread { secondRoundOpen.load(ordering: .acquiring) }
      second.dispatch(Add(amount: 10))
      // Returned at once: queued behind the round in progress on the other thread.
      secondCountersAfterDispatch.newState(state: second.state.counter)
      dispatched.store(true, ordering: .releasing)
    }
    second.subscribe(secondCounters) { $0.select(\.counter) }
    first.subscribe(firstCounters) { $0.select(\.counter) }
    let finished = runOnThreads(
      { first.dispatch(Increment()) },
      {
        secondDrainer.withLock { $0 = ThreadIdentity.current }
        second.dispatch(Increment())
      })
    #expect(finished, "the two threads deadlocked")
    guard finished else { return }
    #expect(secondCountersAfterDispatch.values == [1])
    #expect(secondCounters.values == [0, 1, 11])
    // Applied by the thread draining the second store, which notified its subscribers.
    #expect(notifiers.withLock { $0[11] } == secondDrainer.withLock { $0 })
  }

  @Test func aDispatchFromADrainerToAStoreNoOneDrainsIsAppliedBeforeItReturns() {
    let second = Store(reducer: counterInPlaceReducer, state: CounterState())
    let seen = Recorder<Int>()
    let first = Store(reducer: counterInPlaceReducer, state: CounterState())
    let forwarder = Recorder<Int> { counter in
      guard counter == 1 else { return }
      second.dispatch(Add(amount: 10))
      seen.newState(state: second.state.counter)
    }
    first.subscribe(forwarder) { $0.select(\.counter) }
    first.dispatch(Increment())
    #expect(seen.values == [10])
  }

  @Test func aContextualDispatchFromADrainerQueuedOnAnotherThreadKeepsItsContext() {
    let source = Store(reducer: counterInPlaceReducer, state: CounterState())
    let target = Store(reducer: counterInPlaceReducer, state: CounterState())
    let contexts = Mutex<[String]>([])
    target.setReductionObserver { action, _, _, context in
      contexts.withLock { $0.append("\(type(of: action)) \(context as? String ?? "-")") }
    }
    let targetRoundOpen = Atomic<Bool>(false)
    let dispatched = Atomic<Bool>(false)
    let holder = Recorder<Int> { counter in
      guard counter == 1 else { return }
      targetRoundOpen.store(true, ordering: .releasing)
      waitOnThisThread { dispatched.load(ordering: .acquiring) }
    }
    let forwarder = Recorder<Int> { counter in
      guard counter == 1 else { return }
      waitOnThisThread { targetRoundOpen.load(ordering: .acquiring) }
      target.dispatch(Add(amount: 10), context: "follower-7")
      target.dispatch(SetTitle(title: "own"))
      dispatched.store(true, ordering: .releasing)
    }
    target.subscribe(holder) { $0.select(\.counter) }
    source.subscribe(forwarder) { $0.select(\.counter) }
    let finished = runOnThreads(
      { source.dispatch(Increment()) }, { target.dispatch(Increment()) })
    #expect(finished, "the two threads deadlocked")
    guard finished else { return }
    #expect(
      contexts.withLock { $0 } == ["Increment -", "Add follower-7", "SetTitle -"])
  }
}

/// Holds each thread that arrives until `parties` threads have arrived (for at most 10 seconds:
/// a deadline against a hang; the test's own checks then fail).
private final class Rendezvous: Sendable {
  private let arrived = Atomic<Int>(0)
  private let parties: Int

  init(parties: Int) {
    self.parties = parties
  }

  func arrive() {
    arrived.add(1, ordering: .releasing)
    waitOnThisThread { arrived.load(ordering: .acquiring) >= parties }
  }
}

/// Runs each of `bodies` on a thread of its own (not the test's task pool: they may block) and
/// returns whether all of them returned within `timeout`. Threads that deadlocked are left
/// blocked, so the test fails instead of hanging.
private func runOnThreads(
  timeout: DispatchTimeInterval = .seconds(10), _ bodies: (@Sendable () -> Void)...
) -> Bool {
  let done = DispatchSemaphore(value: 0)
  for body in bodies {
    Thread.detachNewThread {
      body()
      done.signal()
    }
  }
  let deadline = DispatchTime.now() + timeout
  return bodies.allSatisfy { _ in done.wait(timeout: deadline) == .success }
}
