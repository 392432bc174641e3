import Observation
import Synchronization
import Testing

@testable import Tandem

/// Waits, yielding the main actor, until `condition` holds (for at most `timeout`): a bounded
/// wait on a condition, not a sleep standing in for synchronization.
@MainActor private func until(
  _ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool
) async {
  let deadline = ContinuousClock.now + timeout
  while !condition(), ContinuousClock.now < deadline {
    await Task.yield()
  }
  #expect(condition(), "timed out waiting until \(what)")
}

@MainActor @Suite struct StoreModelTests {
  @Test func startsWithTheSelectedValue() {
    let store = Store(reducer: counterReducer, state: CounterState(counter: 7))
    let model = StoreModel(store.selection(\.counter))
    #expect(model.value == 7)
  }

  @Test func aChangeOutsideTheSelectionDoesNotNotify() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    let counter = StoreModel(store.selection(\.counter))
    let title = StoreModel(store.selection(\.title))
    await until("the models take their first values") {
      counter.deliveries >= 1 && title.deliveries >= 1
    }
    let notified = Mutex(false)
    withObservationTracking {
      _ = counter.value
    } onChange: {
      notified.withLock { $0 = true }
    }
    store.dispatch(SetTitle(title: "renamed"))
    store.dispatch(SetTitle(title: "renamed again"))
    // Both models deliver on the main actor, in subscription order: once the title model shows
    // the new title, anything the counter model had to set for these states has been set.
    await until("the title model shows the new title") { title.value == "renamed again" }
    #expect(!notified.withLock { $0 })
    #expect(counter.assignments == 0)
    #expect(counter.deliveries == 1)
  }

  @Test func aChangeInsideTheSelectionNotifiesOnce() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    let counter = StoreModel(store.selection(\.counter))
    await until("the model takes its first value") { counter.deliveries >= 1 }
    let notifications = Mutex(0)
    withObservationTracking {
      _ = counter.value
    } onChange: {
      notifications.withLock { $0 += 1 }
    }
    store.dispatch(SetTitle(title: "outside"))
    store.dispatch(Add(amount: 3))
    await until("the model shows the new counter") { counter.value == 3 }
    #expect(notifications.withLock { $0 } == 1)
    #expect(counter.assignments == 1)
  }

  @Test func updatesOnTheActorItWasGiven() async {
    actor Renderer {}
    let renderer = Renderer()
    let events = EventStore<Int, ButtonEvent>(state: 1, reducers: [quantityReducer])
    let model = StoreModel(events.map { $0 * 2 }, on: renderer)
    events.consume(event: .plus)
    let deadline = ContinuousClock.now + .seconds(10)
    // Read on the renderer, where the model is written.
    while await renderer.recordAndRead(model) != 4, ContinuousClock.now < deadline {
      await Task.yield()
    }
    #expect(await renderer.recordAndRead(model) == 4)
  }

  @Test func releasingTheModelEndsItsSubscription() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    var model: StoreModel<Int>? = StoreModel(store.selection(\.counter))
    await until("the model subscribes") { store.core.withLock { $0.subscriptions.count } == 1 }
    weak let released = model
    model = nil
    #expect(released == nil)
    await until("the subscription ends") { store.core.withLock { $0.subscriptions.isEmpty } }
  }
}

extension Actor {
  /// Reads `model.value` isolated to this actor.
  fileprivate func recordAndRead(_ model: StoreModel<Int>) -> Int {
    model.value
  }
}
