import Synchronization
import Testing

@testable import Tandem

@Suite struct ReplicationHookTests {
  @Test func replaceStateNotifiesSubscribersLikeADispatch() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let counters = Recorder<Int>()
    let titles = Recorder<String>()
    store.subscribe(counters) { $0.select(\.counter) }
    store.subscribe(titles) { $0.select(\.title) }
    store.replaceState(CounterState(counter: 7, title: "counter"))
    store.replaceState(CounterState(counter: 7, title: "replica"))
    #expect(store.state == CounterState(counter: 7, title: "replica"))
    #expect(counters.values == [0, 7])
    #expect(titles.values == ["counter", "replica"])
  }

  @Test func replaceStateBypassesMiddlewareReducerAndObserver() {
    let log = EventLog()
    let store = Store(
      reducer: { action, state in
        log.append("reducer")
        return counterReducer(action: action, state: state)
      }, state: CounterState(), middleware: [logging("m", to: log)])
    store.setReductionObserver { _, _, _, _ in log.append("observer") }
    store.replaceState(CounterState(counter: 3))
    #expect(log.events.isEmpty)
    #expect(store.state.counter == 3)
  }

  @Test func replaceStateFromNewStateIsAppliedAfterTheRound() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorders = (0..<3).map { index in
      Recorder<Int> { value in
        if index == 0, value == 1 { store.replaceState(CounterState(counter: 10)) }
      }
    }
    for recorder in recorders {
      store.subscribe(recorder) { $0.select(\.counter) }
    }
    store.dispatch(Increment())
    for recorder in recorders {
      #expect(recorder.values == [0, 1, 10])
    }
  }

  @Test func observerSeesEachReductionInOrderBeforeSubscribers() {
    let log = EventLog()
    let store = Store(reducer: counterInPlaceReducer, state: CounterState())
    let recorder = Recorder<Int> { log.append("subscriber \($0)") }
    store.subscribe(recorder) { $0.select(\.counter) }
    store.setReductionObserver { action, old, new, _ in
      log.append("observer \(type(of: action)) \(old!.counter)->\(new.counter)")
    }
    store.dispatch(Increment())
    store.dispatch(Add(amount: 2))
    #expect(
      log.events == [
        "subscriber 0", "observer Increment 0->1", "subscriber 1", "observer Add 1->3",
        "subscriber 3",
      ])
  }

  @Test func observerSeesConcurrentDispatchesInTheirTotalOrder() async {
    let store = Store(reducer: counterInPlaceReducer, state: CounterState())
    let transitions = Recorder<[Int]>()
    store.setReductionObserver { _, old, new, _ in
      transitions.newState(state: [old!.counter, new.counter])
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<250 { store.dispatch(Increment()) } }
      }
    }
    #expect(transitions.values == (0..<1000).map { [$0, $0 + 1] })
  }

  @Test(arguments: [false, true])
  func anObserverWithoutTheOldStateLetsAnInPlaceReducerKeepItsStorage(seesOldState: Bool) {
    struct Numbers: Sendable { var values = Array(0..<1000) }
    struct Bump: Action {}
    let copies = Mutex(0)
    let store = Store(
      reducer: { (state: inout Numbers, _: any Action) in
        let before = state.values.withUnsafeBufferPointer { $0.baseAddress }
        state.values[0] += 1
        if state.values.withUnsafeBufferPointer({ $0.baseAddress }) != before {
          copies.withLock { $0 += 1 }
        }
      }, state: Numbers())
    let oldStates = Mutex<[Int?]>([])
    store.setReductionObserver(
      { _, old, _, _ in oldStates.withLock { $0.append(old?.values[0]) } },
      seesOldState: seesOldState)
    for _ in 0..<3 { store.dispatch(Bump()) }
    #expect(oldStates.withLock { $0 } == (seesOldState ? [0, 1, 2] : [nil, nil, nil]))
    #expect(copies.withLock { $0 } == (seesOldState ? 3 : 0))
    #expect(store.state.values[0] == 3)
  }

  @Test func observerGetsNilOldStateForTheInitAction() {
    // The observer cannot be installed before the init, so check through a replaced store:
    // a store created without a state reports its init action with no old state.
    let store = Store(reducer: counterReducer, state: CounterState())
    let olds = Recorder<Bool>()
    store.setReductionObserver { _, old, _, _ in olds.newState(state: old == nil) }
    store.dispatch(Increment())
    #expect(olds.values == [false])
  }

  @Test func removedObserverIsNotCalled() {
    let log = EventLog()
    let store = Store(reducer: counterReducer, state: CounterState())
    store.setReductionObserver { _, _, _, _ in log.append("observer") }
    store.dispatch(Increment())
    store.setReductionObserver(nil)
    store.dispatch(Increment())
    #expect(log.events == ["observer"])
  }

  @Test func interceptorTakesActionsAfterTheMiddleware() {
    let log = EventLog()
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [logging("m", to: log)])
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter) }
    store.setDispatchInterceptor { action in
      log.append("forwarded \(type(of: action))")
      return !(action is Add)
    }
    store.dispatch(Increment())
    store.dispatch(Add(amount: 4))
    #expect(log.events == ["m Increment", "forwarded Increment", "m Add", "forwarded Add"])
    #expect(store.state.counter == 4)
    #expect(recorder.values == [0, 4])
    store.setDispatchInterceptor(nil)
    store.dispatch(Increment())
    #expect(store.state.counter == 5)
  }

  @Test func forwardingReplicaAppliesStatesThroughReplaceState() {
    // A replica forwards every action to its leader and applies the leader's states.
    let leader = Store(reducer: counterInPlaceReducer, state: CounterState())
    let replica = Store(reducer: counterInPlaceReducer, state: CounterState())
    leader.setReductionObserver { _, _, new, _ in replica.replaceState(new) }
    replica.setDispatchInterceptor { action in
      leader.dispatch(action)
      return true
    }
    let recorder = Recorder<Int>()
    replica.subscribe(recorder) { $0.select(\.counter) }
    replica.dispatch(Increment())
    replica.dispatch(Add(amount: 2))
    #expect(recorder.values == [0, 1, 3])
    #expect(replica.state == leader.state)
  }
}

@Suite("Dispatch contexts")
struct DispatchContextTests {
  @Test func theObserverReceivesTheContextOfTheDispatchAndOfWhatItDispatches() {
    let store = Store<CounterState>(
      reducer: { action, state in counterReducer(action: action, state: state) },
      state: CounterState(),
      middleware: [
        { dispatch, _ in
          { next in
            { action in
              next(action)
              if action is Increment { dispatch(Add(amount: -1)) }
            }
          }
        }
      ])
    let contexts = Mutex<[String?]>([])
    store.setReductionObserver { _, _, _, context in
      contexts.withLock { $0.append(context as? String) }
    }
    store.dispatch(Increment(), context: "follower-7")
    store.dispatch(Increment())
    #expect(contexts.withLock { $0 } == ["follower-7", "follower-7", nil, nil])
  }

  @Test func whatASubscriberDispatchesWhenNotifiedIsTheStoresOwnNotTheContexts() {
    let store = Store<CounterState>(
      reducer: { action, state in counterReducer(action: action, state: state) },
      state: CounterState())
    let contexts = Mutex<[String]>([])
    store.setReductionObserver { action, _, _, context in
      contexts.withLock { $0.append("\(type(of: action)) \(context as? String ?? "-")") }
    }
    // Reacts to the follower's increment with an action of its own, as a saga would.
    let reacting = Recorder<Int> { counter in
      if counter == 1 { store.dispatch(SetTitle(title: "one")) }
    }
    store.subscribe(reacting) { $0.select(\.counter) }
    store.dispatch(Increment(), context: "follower-7")
    #expect(contexts.withLock { $0 } == ["Increment follower-7", "SetTitle -"])
    #expect(store.state.title == "one")
  }
}
