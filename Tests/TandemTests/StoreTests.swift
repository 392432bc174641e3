import Testing

@testable import Tandem

@Suite struct StoreTests {
  @Test func createdWithoutStateReducesTheInitActionThroughTheMiddleware() {
    let log = EventLog()
    let middleware: Middleware<CounterState> = { _, _ in
      { next in
        { action in
          log.append("\(type(of: action))")
          next(action)
        }
      }
    }
    let store = Store(reducer: counterReducer, state: nil, middleware: [middleware])
    #expect(store.state == CounterState())
    #expect(log.events == ["TandemInit"])
  }

  @Test func initActionIsAvailableUnderReSwiftsName() {
    let action: any Action = ReSwiftInit()
    #expect(action is TandemInit)
  }

  @Test func stateIsNilWhenTheMiddlewareSwallowsTheInitAction() {
    let swallow: Middleware<CounterState> = { _, _ in { _ in { _ in } } }
    let store = Store(reducer: counterReducer, state: nil, middleware: [swallow])
    #expect(store.state == nil)
  }

  @Test func createdWithStateDoesNotDispatchTheInitAction() {
    let log = EventLog()
    let middleware: Middleware<CounterState> = { _, _ in
      { next in
        { action in
          log.append("\(type(of: action))")
          next(action)
        }
      }
    }
    let store = Store(
      reducer: counterReducer, state: CounterState(counter: 5), middleware: [middleware])
    #expect(store.state.counter == 5)
    #expect(log.events.isEmpty)
  }

  @Test func dispatchAppliesTheReducerBeforeReturning() {
    let store = Store(reducer: counterReducer, state: nil)
    store.dispatch(Increment())
    store.dispatch(Add(amount: 10))
    #expect(store.state.counter == 11)
  }

  @Test func inPlaceReducerAppliesActions() {
    let store = Store(reducer: counterInPlaceReducer, state: CounterState())
    store.dispatch(Increment())
    store.dispatch(SetTitle(title: "t"))
    #expect(store.state == CounterState(counter: 1, title: "t"))
  }

  @Test func inPlaceReducerClosureLiteralIsAccepted() {
    let store = Store<CounterState>(
      reducer: { state, action in
        if action is Increment { state.counter += 2 }
      }, state: CounterState())
    store.dispatch(Increment())
    #expect(store.state.counter == 2)
  }

  @Test func inPlaceReducerMutatesTheStateWithoutCopyingIt() {
    struct Big: Sendable { var values = [Int](repeating: 0, count: 1000) }
    struct Bump: Action { var index: Int }
    let addresses = EventLog()
    let store = Store<Big>(
      reducer: { state, action in
        guard let bump = action as? Bump else { return }
        state.values[bump.index] += 1
        state.values.withUnsafeBufferPointer { addresses.append("\($0.baseAddress!)") }
      }, state: Big())
    for index in 0..<100 {
      store.dispatch(Bump(index: index))
    }
    #expect(Set(addresses.events).count == 1)
    #expect(store.state.values.prefix(100).allSatisfy { $0 == 1 })
  }

  @Test func subscriberOfAnArrayStillSeesThePreviousValueAfterAnInPlaceChange() {
    struct Numbers: Sendable { var values = [0, 0, 0] }
    struct Bump: Action {}
    let store = Store<Numbers>(
      reducer: { state, _ in state.values[0] += 1 }, state: Numbers())
    let recorder = Recorder<[Int]>()
    store.subscribe(recorder) { $0.select(\.values) }
    store.dispatch(Bump())
    store.dispatch(Bump())
    #expect(recorder.values == [[0, 0, 0], [1, 0, 0], [2, 0, 0]])
  }

  @Test func combineReducersAppliesReducersInOrder() {
    let double: Reducer<CounterState> = { _, state in
      var state = state ?? CounterState()
      state.counter *= 2
      return state
    }
    let store = Store(reducer: combineReducers(counterReducer, double), state: CounterState())
    store.dispatch(Add(amount: 3))
    #expect(store.state.counter == 6)
  }

  @Test func combineReducersOfArrayStartsFromNilState() {
    let reducers: [Reducer<CounterState>] = [counterReducer, counterReducer]
    let store = Store(reducer: combineReducers(reducers), state: nil)
    store.dispatch(Increment())
    #expect(store.state.counter == 2)
  }

  @Test func combineInPlaceReducersAppliesReducersInOrder() {
    let double: InoutReducer<CounterState> = { state, _ in state.counter *= 2 }
    let store = Store(
      reducer: combineReducers(counterInPlaceReducer, double), state: CounterState())
    store.dispatch(Add(amount: 3))
    #expect(store.state.counter == 6)
    let reversed = Store(
      reducer: combineReducers([double, counterInPlaceReducer]), state: CounterState())
    reversed.dispatch(Add(amount: 3))
    #expect(reversed.state.counter == 3)
  }

  @Test func typedActionEnumsWork() {
    enum CounterAction: Action {
      case add(Int)
      case reset
    }
    let store = Store<CounterState>(
      reducer: { state, action in
        switch action as? CounterAction {
        case .add(let amount): state.counter += amount
        case .reset: state.counter = 0
        case nil: break
        }
      }, state: CounterState())
    store.dispatch(CounterAction.add(4))
    #expect(store.state.counter == 4)
    store.dispatch(CounterAction.reset)
    #expect(store.state.counter == 0)
  }

  @Test func dispatchFunctionDispatchesThroughTheStore() {
    let store = Store(reducer: counterReducer, state: CounterState())
    store.dispatchFunction(Increment())
    #expect(store.state.counter == 1)
  }

  @Test func deprecatedActionCreatorsDispatchTheirActions() {
    func dispatchCreators<S: StoreType>(
      _ store: S, _ creator: S.ActionCreator, _ asyncCreator: S.AsyncActionCreator,
      callback: S.DispatchCallback
    ) {
      store.dispatch(creator)
      store.dispatch(asyncCreator, callback: callback)
    }
    let store = Store(reducer: counterReducer, state: CounterState())
    let callbackStates = Recorder<Int>()
    dispatchCreators(
      store,
      { state, _ in state.counter == 0 ? Add(amount: 5) : nil },
      { _, _, callback in callback { _, _ in Increment() } },
      callback: { callbackStates.newState(state: $0.counter) })
    #expect(store.state.counter == 6)
    #expect(callbackStates.values == [6])
  }
}

final class CountingStore: Store<CounterState>, @unchecked Sendable {
  let dispatched = EventLog()

  required init(
    reducer: @escaping Reducer<CounterState>, state: CounterState?,
    middleware: [Middleware<CounterState>] = [], automaticallySkipsRepeats: Bool = true
  ) {
    super.init(
      reducer: reducer, state: state, middleware: middleware,
      automaticallySkipsRepeats: automaticallySkipsRepeats)
  }

  override func dispatch(_ action: any Action) {
    dispatched.append("\(type(of: action))")
    super.dispatch(action)
  }
}

@Suite struct SubclassTests {
  @Test func subclassCanOverrideDispatchAndUseTheRequiredInitializer() {
    let store = CountingStore(reducer: counterReducer, state: nil)
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter) }
    store.dispatch(Increment())
    #expect(store.dispatched.events == ["TandemInit", "Increment"])
    #expect(recorder.values == [0, 1])
  }

  @Test func requiredInitializerIsReachableThroughTheMetatype() {
    let type: Store<CounterState>.Type = CountingStore.self
    let store = type.init(
      reducer: counterReducer, state: CounterState(counter: 2), middleware: [],
      automaticallySkipsRepeats: true)
    #expect(store is CountingStore)
    #expect(store.state.counter == 2)
  }
}
