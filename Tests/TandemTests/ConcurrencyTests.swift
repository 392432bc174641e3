import Foundation
import Synchronization
import Testing

@testable import Tandem

@Suite struct ConcurrencyTests {
  @Test func concurrentDispatchesAreAllAppliedOnceAndSeenInOrder() async {
    let tasks = 8
    let perTask = 500
    let store = Store(reducer: counterInPlaceReducer, state: CounterState())
    let recorders = (0..<3).map { _ in Recorder<Int>() }
    for recorder in recorders {
      store.subscribe(recorder) { $0.select(\.counter) }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          for _ in 0..<perTask { store.dispatch(Increment()) }
        }
      }
    }
    let total = tasks * perTask
    #expect(store.state.counter == total)
    for recorder in recorders {
      // Every state exactly once, in order: the initial one and one per dispatch.
      #expect(recorder.values == Array(0...total))
    }
  }

  @Test func concurrentDispatchesFromThreadsWithReSwiftStyleReducer() async {
    let store = Store(reducer: counterReducer, state: nil)
    let recorder = Recorder<CounterState>()
    store.subscribe(recorder)
    await withTaskGroup(of: Void.self) { group in
      for amount in 1...6 {
        group.addTask {
          for _ in 0..<300 { store.dispatch(Add(amount: amount)) }
        }
      }
    }
    let expected = (1...6).reduce(0) { $0 + $1 * 300 }
    #expect(store.state.counter == expected)
    #expect(recorder.values.count == 1 + 6 * 300)
    let counters = recorder.values.map(\.counter)
    #expect(zip(counters, counters.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func concurrentSubscribeReadAndDispatchSeeConsistentStates() async {
    let store = Store(reducer: counterInPlaceReducer, state: CounterState())
    let recorders = await withTaskGroup(of: [Recorder<Int>].self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<250 { store.dispatch(Increment()) }
          return []
        }
      }
      for _ in 0..<4 {
        group.addTask {
          var recorders: [Recorder<Int>] = []
          for _ in 0..<20 {
            let recorder = Recorder<Int>()
            recorders.append(recorder)
            store.subscribe(recorder) { $0.select(\.counter) }
            _ = store.state.counter
          }
          return recorders
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(store.state.counter == 1000)
    #expect(recorders.count == 80)
    for recorder in recorders {
      // Each subscriber sees a gapless run of states ending at the final one.
      let values = recorder.values
      #expect(values.last == 1000)
      #expect(values == Array(values.first!...1000))
    }
  }

  @Test func readersSeeOnlyAppliedStatesWhileReducersRun() async {
    struct Pair: Sendable, Equatable {
      var a = 0
      var b = 0
    }
    struct Step: Action {}
    let store = Store<Pair>(
      reducer: { state, _ in
        state.a += 1
        state.b += 1
      }, state: Pair())
    let consistent = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for _ in 0..<2000 { store.dispatch(Step()) }
        return true
      }
      group.addTask {
        var consistent = true
        for _ in 0..<2000 {
          let state = store.state!
          if state.a != state.b { consistent = false }
        }
        return consistent
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(consistent)
    #expect(store.state == Pair(a: 2000, b: 2000))
  }

  @Test func dispatchFromNewStateIsAppliedAfterTheRoundSoNoSubscriberSeesStaleStates() {
    // ReSwift issue 519: with 6 subscribers where the first dispatches on seeing 1, ReSwift
    // leaves three of them seeing [0, 2, 2].
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorders = (0..<6).map { index in
      Recorder<Int> { value in
        if index == 0, value == 1 { store.dispatch(Increment()) }
      }
    }
    for recorder in recorders {
      store.subscribe(recorder) { $0.select(\.counter) }
    }
    store.dispatch(Increment())
    // The nested action is applied before the outer dispatch returns.
    #expect(store.state.counter == 2)
    for recorder in recorders {
      #expect(recorder.values == [0, 1, 2])
    }
  }

  @Test func dispatchFromNewStateGoesThroughTheMiddleware() {
    let log = EventLog()
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [logging("m", to: log)])
    let recorder = Recorder<Int> { value in
      if value == 1 { store.dispatch(Add(amount: 5)) }
    }
    store.subscribe(recorder) { $0.select(\.counter) }
    store.dispatch(Increment())
    #expect(log.events == ["m Increment", "m Add"])
    #expect(recorder.values == [0, 1, 6])
  }

  @Test func subscribeFromNewStateIsNotPartOfTheRoundInProgress() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let late = Recorder<Int>()
    let first = Recorder<Int> { value in
      if value == 1 { store.subscribe(late) { $0.select(\.counter) } }
    }
    store.subscribe(first) { $0.select(\.counter) }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(first.values == [0, 1, 2])
    #expect(late.values == [1, 2])
  }

  @Test func unsubscribeFromNewStateStopsLaterNotifications() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let second = Recorder<Int>()
    let first = Recorder<Int> { value in
      if value == 1 { store.unsubscribe(second) }
    }
    store.subscribe(first) { $0.select(\.counter) }
    store.subscribe(second) { $0.select(\.counter) }
    store.dispatch(Increment())
    #expect(second.values == [0])
  }

  @Test func unsubscribeFromAnotherThreadEndsASubscriptionBeingInstalled() {
    // A subscriber subscribes `late` from `newState`; another thread unsubscribes it as the
    // drainer takes it off the queue to install it. Ending the round after a varying spin sweeps
    // the unsubscribe across that step. A dispatch after `unsubscribe` returns must not reach it.
    var notifiedAfterUnsubscribe = 0
    for run in 0..<10_000 {
      let store = Store(reducer: counterReducer, state: CounterState())
      let late = Recorder<Int>()
      let subscribed = Atomic<Bool>(false)
      let subscriber = Recorder<Int> { value in
        guard value == 1 else { return }
        store.subscribe(late) { $0.select(\.counter) }
        subscribed.store(true, ordering: .releasing)
        for _ in 0..<(run % 64) { _ = subscribed.load(ordering: .relaxed) }
      }
      store.subscribe(subscriber) { $0.select(\.counter) }
      let unsubscribed = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        let deadline = ContinuousClock.now + .seconds(10)
        while !subscribed.load(ordering: .acquiring), ContinuousClock.now < deadline {}
        store.unsubscribe(late)
        store.dispatch(Add(amount: 100))
        unsubscribed.signal()
      }
      store.dispatch(Increment())
      unsubscribed.wait()
      if late.values.contains(where: { $0 > 100 }) { notifiedAfterUnsubscribe += 1 }
    }
    #expect(notifiedAfterUnsubscribe == 0)
  }

  @Test func dispatchQueuedBehindAnotherThreadsDrainReturnsOnlyOnceApplied() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    let otherDispatched = Recorder<Int>()
    // The first subscriber, on the draining thread, holds the round open until the other
    // task's dispatch is queued behind it (a bounded wait on that condition).
    let holder = Recorder<Int> { value in
      guard value == 1 else { return }
      let deadline = ContinuousClock.now + .seconds(10)
      while store.core.withLock({ $0.queue.isEmpty }), ContinuousClock.now < deadline {}
    }
    store.subscribe(holder) { $0.select(\.counter) }
    let other = Task.detached {
      // Wait until the first dispatch is draining, then dispatch behind it.
      let deadline = ContinuousClock.now + .seconds(10)
      while holder.values.count < 2, ContinuousClock.now < deadline { await Task.yield() }
      store.dispatch(Add(amount: 10))
      otherDispatched.newState(state: store.state.counter)
    }
    store.dispatch(Increment())
    await other.value
    #expect(otherDispatched.values == [11])
    #expect(holder.values == [0, 1, 11])
  }

  @Test func dispatchQueuedWhileAReducerRunsIsAppliedWithoutSubscribers() {
    // No subscriber: the drain would end with the first reduction if nothing were queued.
    let reference = StoreReference()
    let otherDone = DispatchSemaphore(value: 0)
    let otherSaw = Mutex<Int?>(nil)
    let queued = Mutex(false)
    let store = Store<CounterState>(
      reducer: { state, action in
        if action is Increment, let store = reference.store {
          // Dispatch from a thread of its own (not the test's busy task pool) while this
          // reduction runs, and hold the reduction until that dispatch is queued (bounded).
          Thread.detachNewThread {
            store.dispatch(Add(amount: 10))
            // The dispatch returns only once the drainer has applied it.
            otherSaw.withLock { $0 = store.state.counter }
            otherDone.signal()
          }
          waitOnThisThread { !store.core.withLock { $0.queue.isEmpty } }
          queued.withLock { $0 = !store.core.withLock { $0.queue.isEmpty } }
        }
        counterInPlaceReducer(state: &state, action: action)
      }, state: CounterState())
    reference.store = store
    store.dispatch(Increment())
    #expect(queued.withLock { $0 })
    #expect(store.state.counter == 11)
    otherDone.wait()
    #expect(otherSaw.withLock { $0 } == 11)
  }
}
