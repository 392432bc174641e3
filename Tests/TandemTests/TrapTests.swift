import Testing

@testable import Tandem

@Suite struct TrapTests {
  @Test func reducerThatDispatchesTraps() async {
    await #expect(processExitsWith: .failure) {
      let selfDispatching = SelfDispatchingStore()
      selfDispatching.store.dispatch(Increment())
    }
  }

  @Test func reducerThatReadsTheStoreStateTraps() async {
    await #expect(processExitsWith: .failure) {
      let holder = StoreHolder()
      let store = Store<CounterState>(
        reducer: { state, _ in state.counter = holder.store!.state.counter + 1 },
        state: CounterState())
      holder.store = store
      store.dispatch(Increment())
    }
  }

  @Test func reducerDispatchingToAnotherStoreDoesNotTrap() {
    let other = Store(reducer: counterReducer, state: CounterState())
    let store = Store<CounterState>(
      reducer: { state, action in
        if action is Increment { other.dispatch(Increment()) }
        counterInPlaceReducer(state: &state, action: action)
      }, state: CounterState())
    store.dispatch(Increment())
    #expect(other.state.counter == 1)
    #expect(store.state.counter == 1)
  }
}

/// Holds a store for a reducer that refers to its own store.
final class StoreHolder: @unchecked Sendable {
  var store: Store<CounterState>?
}

/// A store whose reducer dispatches to the store itself.
final class SelfDispatchingStore: @unchecked Sendable {
  let holder = StoreHolder()
  var store: Store<CounterState> { holder.store! }

  init() {
    let holder = self.holder
    holder.store = Store<CounterState>(
      reducer: { state, action in
        if action is Increment { holder.store!.dispatch(Add(amount: 1)) }
      }, state: CounterState())
  }
}
