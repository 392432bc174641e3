import Synchronization
import Testing

@testable import Tandem

/// ReSwift API and semantics that code ported from ReSwift relies on.
@Suite struct ReSwiftCompatibilityTests {
  /// Subscribes through a generic `StoreType`, as ReSwift code generic over stores does.
  private func subscribeToCounter<S: StoreType>(_ store: S, _ subscriber: Recorder<Int>)
  where S.State == CounterState {
    store.subscribe(subscriber) { $0.select(\.counter) }
  }

  @Test func subscriptionThroughAGenericStoreTypeSkipsRepeatsOfEquatableSelections() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<Int>()
    subscribeToCounter(store, recorder)
    store.dispatch(SetTitle(title: "counter unchanged"))
    store.dispatch(Increment())
    #expect(recorder.values == [0, 1])
  }

  @Test func subscriberAddedInsideNewStateGetsTheStateBeforeSubscribeReturns() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let late = Recorder<Int>()
    let seenWhenSubscribeReturned = Mutex<[Int]?>(nil)
    let first = Recorder<Int> { value in
      guard value == 1 else { return }
      store.subscribe(late) { $0.select(\.counter) }
      seenWhenSubscribeReturned.withLock { $0 = late.values }
    }
    store.subscribe(first) { $0.select(\.counter) }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(seenWhenSubscribeReturned.withLock { $0 } == [1])
    #expect(late.values == [1, 2])
    #expect(first.values == [0, 1, 2])
  }

  @Test func reSwiftStyleReducerReadingTheStoreSeesTheStateBeforeTheAction() {
    let reference = StoreReference()
    let seen = Mutex<[Int?]>([])
    let store = Store<CounterState>(
      reducer: { action, state in
        seen.withLock { $0.append(reference.store?.state?.counter) }
        return counterReducer(action: action, state: state)
      }, state: CounterState(counter: 5))
    reference.store = store
    store.dispatch(Increment())
    store.dispatch(Add(amount: 10))
    #expect(seen.withLock { $0 } == [5, 6])
    #expect(store.state.counter == 16)
  }

  @Test func dispatchFunctionCanBeReplacedAndWrapped() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let log = EventLog()
    let next = store.dispatchFunction!
    store.dispatchFunction = { action in
      log.append("\(type(of: action))")
      next(action)
    }
    store.dispatch(Increment())
    store.dispatch(Add(amount: 2))
    #expect(log.events == ["Increment", "Add"])
    #expect(store.state.counter == 3)
    store.dispatchFunction = nil
    store.dispatch(Increment())
    #expect(log.events.count == 2)
    #expect(store.state.counter == 4)
  }

  @Test func customOperatorBuiltWithSinkAndObserverSeesOldAndNewValues() {
    let store = Store(
      reducer: counterReducer, state: CounterState(counter: 2), automaticallySkipsRepeats: false)
    let pairs = Mutex<[String]>([])
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { subscription in
      subscription.select(\.counter).squared { old, new in
        pairs.withLock { $0.append("\(old.map(String.init) ?? "nil")->\(new)") }
      }
    }
    store.dispatch(Increment())
    store.dispatch(SetTitle(title: "same counter"))
    store.dispatch(Increment())
    #expect(recorder.values == [4, 9, 9, 16])
    #expect(pairs.withLock { $0 } == ["nil->2", "2->3", "3->3", "3->4"])
  }

  @Test func customOperatorGetsTheAutomaticSkipOfRepeats() {
    let store = Store(reducer: counterReducer, state: CounterState(counter: 2))
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter).squared { _, _ in } }
    store.dispatch(SetTitle(title: "same counter"))
    store.dispatch(Increment())
    #expect(recorder.values == [4, 9])
  }

  @Test func stateTypeAndCodingAreAvailable() {
    struct AppState: StateType, Coding {
      var counter = 0
      init() {}
      init?(dictionary: [String: AnyObject]) { return nil }
      var dictionary: [String: AnyObject] { [:] }
    }
    let store = Store<AppState>(reducer: { _, state in state ?? AppState() }, state: nil)
    #expect(store.state.counter == 0)
    #expect(AppState(dictionary: [:]) == nil)
  }
}

extension Subscription where State == Int {
  /// A custom operator written as in ReSwift: the square of each value; `observe` sees the
  /// values this step gets (previous and new).
  fileprivate func squared(
    observe: @escaping (Int?, Int) -> Void
  ) -> Subscription<Int> {
    Subscription<Int> { send in
      self.observer = { old, new in
        observe(old, new)
        send(old.map { $0 * $0 }, new * new)
      }
    }
  }
}
