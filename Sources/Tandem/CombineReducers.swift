/// One reducer that applies `reducers` in order, each to the state the previous one returned.
///
/// ```swift
/// let store = Store(reducer: combineReducers(counterReducer, historyReducer), state: nil)
/// ```
public func combineReducers<State>(_ reducers: Reducer<State>...) -> Reducer<State> {
  combineReducers(reducers)
}

/// One reducer that applies the array of `reducers` in order, each to the previous one's result.
///
/// The array must not be empty: a reducer has to return a state.
public func combineReducers<State>(_ reducers: [Reducer<State>]) -> Reducer<State> {
  precondition(!reducers.isEmpty, "combineReducers needs at least one reducer")
  return { action, state in
    var current = state
    for reducer in reducers {
      current = reducer(action, current)
    }
    return current!
  }
}

/// One in-place reducer that applies `reducers` in order to the same state.
public func combineReducers<State>(_ reducers: InoutReducer<State>...) -> InoutReducer<State> {
  combineReducers(reducers)
}

/// One in-place reducer that applies the array of `reducers` in order to the same state.
public func combineReducers<State>(_ reducers: [InoutReducer<State>]) -> InoutReducer<State> {
  return { state, action in
    for reducer in reducers {
      reducer(&state, action)
    }
  }
}
