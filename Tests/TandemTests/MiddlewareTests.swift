import Testing

@testable import Tandem

/// A middleware that logs `name` before passing each action on.
func logging(_ name: String, to log: EventLog) -> Middleware<CounterState> {
  { _, _ in
    { next in
      { action in
        log.append("\(name) \(type(of: action))")
        next(action)
      }
    }
  }
}

@Suite struct MiddlewareTests {
  @Test func middlewareRunsInOrderBeforeTheReducer() {
    let log = EventLog()
    let store = Store(
      reducer: { action, state in
        log.append("reducer \(type(of: action))")
        return counterReducer(action: action, state: state)
      }, state: CounterState(),
      middleware: [logging("first", to: log), logging("second", to: log)])
    store.dispatch(Increment())
    #expect(log.events == ["first Increment", "second Increment", "reducer Increment"])
  }

  @Test func middlewareCanSwallowActions() {
    let swallowIncrements: Middleware<CounterState> = { _, _ in
      { next in
        { action in
          if action is Increment { return }
          next(action)
        }
      }
    }
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [swallowIncrements])
    let recorder = Recorder<Int>()
    store.subscribe(recorder) { $0.select(\.counter) }
    store.dispatch(Increment())
    store.dispatch(Add(amount: 2))
    #expect(store.state.counter == 2)
    #expect(recorder.values == [0, 2])
  }

  @Test func middlewareCanReplaceActions() {
    let doubler: Middleware<CounterState> = { _, _ in
      { next in
        { action in
          if let add = action as? Add {
            next(Add(amount: add.amount * 2))
          } else {
            next(action)
          }
        }
      }
    }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [doubler])
    store.dispatch(Add(amount: 4))
    #expect(store.state.counter == 8)
  }

  @Test func dispatchFromMiddlewareIsSynchronous() {
    let seen = Recorder<Int>()
    let middleware: Middleware<CounterState> = { dispatch, getState in
      { next in
        { action in
          next(action)
          if action is Increment {
            dispatch(Add(amount: 10))
            seen.newState(state: getState()!.counter)
          }
        }
      }
    }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [middleware])
    store.dispatch(Increment())
    #expect(seen.values == [11])
    #expect(store.state.counter == 11)
  }

  @Test func getStateReturnsTheCurrentState() {
    let seen = Recorder<Int>()
    let middleware: Middleware<CounterState> = { _, getState in
      { next in
        { action in
          seen.newState(state: getState()!.counter)
          next(action)
        }
      }
    }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [middleware])
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(seen.values == [0, 1])
  }

  @Test func settingMiddlewareReplacesTheChain() {
    let log = EventLog()
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [logging("old", to: log)])
    store.middleware = [logging("new", to: log)]
    store.dispatch(Increment())
    #expect(log.events == ["new Increment"])
    #expect(store.middleware.count == 1)
    store.middleware = []
    store.dispatch(Increment())
    #expect(log.events == ["new Increment"])
    #expect(store.state.counter == 2)
  }

  @Test func dispatchFromAnotherThreadsThunkIsSynchronous() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    // A thunk-like task: dispatches, then reads the state it expects.
    let observed = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var seenAll = true
          for _ in 0..<200 {
            let before = store.state.counter
            store.dispatch(Increment())
            if store.state.counter <= before { seenAll = false }
          }
          return seenAll ? 1 : 0
        }
      }
      return await group.reduce(0, +)
    }
    #expect(observed == 4)
    #expect(store.state.counter == 800)
  }
}
