import Synchronization
import Testing

@testable import Tandem

/// Subscribing and unsubscribing cost O(1) amortized, in subscription order.
@Suite struct SubscriptionScalingTests {
  /// Slots visited by compactions per subscribe or unsubscribe, after `count` subscribers
  /// subscribed and unsubscribed (in subscription order, then in reverse for a second pass).
  private func compactionWorkPerOperation(subscribers count: Int) -> Double {
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscribers = (0..<count).map { _ in Recorder<Int>() }
    for _ in 0..<2 {
      for subscriber in subscribers {
        store.subscribe(subscriber) { $0.select(\.counter) }
      }
      for subscriber in subscribers.reversed() {
        store.unsubscribe(subscriber)
      }
      for subscriber in subscribers {
        store.subscribe(subscriber) { $0.select(\.counter) }
      }
      for subscriber in subscribers {
        store.unsubscribe(subscriber)
      }
    }
    let list = store.core.withLock { $0.subscriptions }
    #expect(list.isEmpty)
    #expect(list.operations == 8 * count)
    return Double(list.compactedSlots) / Double(list.operations)
  }

  @Test func costPerOperationDoesNotGrowWithTheNumberOfSubscribers() {
    let small = compactionWorkPerOperation(subscribers: 100)
    let large = compactionWorkPerOperation(subscribers: 10_000)
    // Each compaction visits at most twice the slots emptied since the last one, plus a few.
    #expect(small <= 2)
    #expect(large <= 2)
  }

  @Test func notificationOrderIsSubscriptionOrderAfterManyUnsubscribes() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let log = Mutex<[Int]>([])
    let subscribers = (0..<10_000).map { index in
      Recorder<Int> { value in
        if value > 0 { log.withLock { $0.append(index) } }
      }
    }
    for subscriber in subscribers {
      store.subscribe(subscriber) { $0.select(\.counter) }
    }
    // Drop three in four (compacting several times), and move subscriber 1 to the end.
    for (index, subscriber) in subscribers.enumerated() where index % 4 != 0 {
      store.unsubscribe(subscriber)
    }
    store.subscribe(subscribers[1]) { $0.select(\.counter) }
    store.dispatch(Increment())
    let expected = Array(stride(from: 0, to: 10_000, by: 4)) + [1]
    #expect(log.withLock { $0 } == expected)
  }

  @Test func subscribersReleasedMeanwhileAreDropped() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let kept = Recorder<Int>()
    do {
      let released = (0..<100).map { _ in Recorder<Int>() }
      for subscriber in released {
        store.subscribe(subscriber) { $0.select(\.counter) }
      }
      store.subscribe(kept) { $0.select(\.counter) }
    }
    store.dispatch(Increment())
    #expect(store.core.withLock { $0.subscriptions.count } == 1)
    store.dispatch(Increment())
    #expect(kept.values == [0, 1, 2])
  }
}
