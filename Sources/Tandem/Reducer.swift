/// A ReSwift-style reducer: returns the state that results from `action` applied to `state`.
///
/// `state` is `nil` only for the first action (``TandemInit``) of a store created without a
/// state; the reducer then returns the initial state.
///
/// ```swift
/// func counterReducer(action: Action, state: AppState?) -> AppState {
///   var state = state ?? AppState()
///   if action is Increment { state.counter += 1 }
///   return state
/// }
/// ```
///
/// Reducers run on whichever thread drains the store, so they are `@Sendable`, and must not
/// dispatch (that traps).
public typealias Reducer<ReducerStateType> =
  @Sendable (_ action: any Action, _ state: ReducerStateType?) -> ReducerStateType

/// An in-place reducer: mutates `state` to apply `action`. The fast path.
///
/// The store keeps its state uniquely referenced while an `InoutReducer` runs, so copy-on-write
/// storage (arrays, dictionaries, strings) is mutated in place instead of being copied for every
/// action, unless a subscriber or an observer still holds the previous state.
///
/// ```swift
/// let counterReducer: InoutReducer<AppState> = { state, action in
///   if action is Increment { state.counter += 1 }
/// }
/// ```
public typealias InoutReducer<State> =
  @Sendable (_ state: inout State, _ action: any Action) -> Void
