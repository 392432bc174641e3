import Testing

@testable import Tandem

/// A non-Equatable wrapper, to check that only Equatable selections skip repeats automatically.
struct Boxed: Sendable { var value: Int }

@Suite struct SubscriptionTests {
  @Test func subscriberReceivesTheCurrentStateOnSubscribeAndAfterEachDispatch() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<CounterState>()
    store.subscribe(recorder)
    store.dispatch(Increment())
    #expect(recorder.values.map(\.counter) == [0, 1])
  }

  @Test func equatableWholeStateSkipsRepeatsAutomatically() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<CounterState>()
    store.subscribe(recorder)
    store.dispatch(Add(amount: 0))
    store.dispatch(Increment())
    #expect(recorder.values.map(\.counter) == [0, 1])
  }

  @Test func equatableSelectionSkipsRepeatsAutomatically() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let counters = Recorder<Int>()
    let titles = Recorder<String>()
    store.subscribe(counters) { $0.select { $0.counter } }
    store.subscribe(titles) { $0.select(\.title) }
    store.dispatch(Increment())
    store.dispatch(SetTitle(title: "x"))
    #expect(counters.values == [0, 1])
    #expect(titles.values == ["counter", "x"])
  }

  @Test func repeatsAreDeliveredWhenAutomaticSkippingIsOff() {
    let store = Store(
      reducer: counterReducer, state: CounterState(), automaticallySkipsRepeats: false)
    let counters = Recorder<Int>()
    let states = Recorder<CounterState>()
    store.subscribe(counters) { $0.select(\.counter) }
    store.subscribe(states)
    store.dispatch(SetTitle(title: "x"))
    #expect(counters.values == [0, 0])
    #expect(states.values.count == 2)
  }

  @Test func nonEquatableSelectionReceivesEveryState() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Boxed>()
    store.subscribe(recorder) { $0.select { Boxed(value: $0.counter) } }
    store.dispatch(SetTitle(title: "x"))
    #expect(recorder.values.map(\.value) == [0, 0])
  }

  @Test func explicitSkipRepeatsUsesTheGivenComparison() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Boxed>()
    store.subscribe(recorder) {
      $0.select { Boxed(value: $0.counter) }.skipRepeats { $0.value / 10 == $1.value / 10 }
    }
    for _ in 0..<25 { store.dispatch(Increment()) }
    #expect(recorder.values.map(\.value) == [0, 10, 20])
  }

  @Test func skipWhenComparesWithThePreviousState() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Boxed>()
    store.subscribe(recorder) {
      $0.select { Boxed(value: $0.counter) }.skip { old, new in new.value - old.value < 2 }
    }
    store.dispatch(Add(amount: 1))
    store.dispatch(Add(amount: 5))
    store.dispatch(Add(amount: 1))
    #expect(recorder.values.map(\.value) == [0, 6])
  }

  @Test func onlyWhenPassesMatchingTransitions() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Boxed>()
    store.subscribe(recorder) {
      $0.select { Boxed(value: $0.counter) }.only { old, new in new.value > old.value }
    }
    store.dispatch(Add(amount: 2))
    store.dispatch(Add(amount: -1))
    store.dispatch(Add(amount: 3))
    #expect(recorder.values.map(\.value) == [0, 2, 4])
  }

  @Test func laterStepsCompareWithThePreviousStateEvenWhenAnEarlierStepFiltered() {
    // As in ReSwift, each step compares the value for this state with the value for the
    // previous state, not with the last value delivered.
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Int>()
    store.subscribe(recorder) {
      $0.skip { _, new in new.title == "hidden" }.select(\.counter).skipRepeats()
    }
    store.dispatch(SetTitle(title: "hidden"))
    store.dispatch(Increment())  // title still "hidden": skipped
    store.dispatch(SetTitle(title: "shown"))  // counter 1 == previous state's 1: skipped
    store.dispatch(Increment())
    #expect(recorder.values == [0, 2])
  }

  @Test func subscribersAreNotifiedInTheOrderTheySubscribed() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let log = EventLog()
    let recorders = (0..<5).map { index in
      Recorder<Int> { value in log.append("\(index):\(value)") }
    }
    for recorder in recorders {
      store.subscribe(recorder) { $0.select(\.counter) }
    }
    store.dispatch(Increment())
    #expect(log.events.suffix(5) == ["0:1", "1:1", "2:1", "3:1", "4:1"])
  }

  @Test func subscribingAgainReplacesTheSubscription() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter) }
    store.subscribe(recorder) { $0.select { $0.counter * 100 } }
    store.dispatch(Increment())
    #expect(recorder.values == [0, 0, 100])
  }

  @Test func unsubscribedSubscriberReceivesNothingMore() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter) }
    store.dispatch(Increment())
    store.unsubscribe(recorder)
    store.dispatch(Increment())
    #expect(recorder.values == [0, 1])
  }

  @Test func subscribersAreHeldWeakly() {
    let store = Store(reducer: counterReducer, state: CounterState())
    weak var released: Recorder<Int>?
    do {
      let recorder = Recorder<Int>()
      released = recorder
      store.subscribe(recorder) { $0.select(\.counter) }
    }
    #expect(released == nil)
    store.dispatch(Increment())
    #expect(store.core.withLock { $0.subscriptions.isEmpty })
  }

  @Test func storeWithoutStateNotifiesOnlyOnceItHasOne() {
    let swallowFirst: Middleware<CounterState> = { _, getState in
      { next in
        { action in
          if action is TandemInit { return }
          next(action)
        }
      }
    }
    let store = Store(reducer: counterReducer, state: nil, middleware: [swallowFirst])
    let recorder = Recorder<CounterState>()
    store.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    store.dispatch(Increment())
    #expect(recorder.values.map(\.counter) == [1])
  }
}

@Suite struct SharedComparisonTests {
  struct Lists: Sendable {
    var values = [1, 2, 3]
    var other = [1, 2, 3]
  }
  struct SetValues: Action { var values: [Int] }
  struct SetOther: Action { var values: [Int] }

  static func reducer(state: inout Lists, action: any Action) {
    if let set = action as? SetValues { state.values = set.values }
    if let set = action as? SetOther { state.other = set.values }
  }

  @Test func subscribersSelectingTheSameArrayEachSkipEqualCopiesAndSeeChanges() {
    let store = Store(reducer: Self.reducer, state: Lists())
    let recorders = (0..<4).map { _ in Recorder<[Int]>() }
    for recorder in recorders {
      store.subscribe(recorder) { $0.select(\.values) }
    }
    store.dispatch(SetValues(values: Array([1, 2, 3])))  // equal, new buffer
    store.dispatch(SetValues(values: [1, 2, 4]))
    store.dispatch(SetValues(values: [1, 2, 4]))
    store.dispatch(SetValues(values: [9]))
    for recorder in recorders {
      #expect(recorder.values == [[1, 2, 3], [1, 2, 4], [9]])
    }
  }

  @Test func subscribersSelectingDifferentArraysOfOneTypeGetTheirOwnAnswers() {
    let store = Store(reducer: Self.reducer, state: Lists())
    let values = Recorder<[Int]>()
    let other = Recorder<[Int]>()
    let values2 = Recorder<[Int]>()
    store.subscribe(values) { $0.select(\.values) }
    store.subscribe(other) { $0.select(\.other) }
    store.subscribe(values2) { $0.select(\.values) }
    store.dispatch(SetOther(values: [5]))
    store.dispatch(SetValues(values: [6]))
    #expect(values.values == [[1, 2, 3], [6]])
    #expect(values2.values == [[1, 2, 3], [6]])
    #expect(other.values == [[1, 2, 3], [5]])
  }
}
