/// A store of typed events, in the spirit of Redux-ReactiveSwift: a state, a chain of reducers
/// `(State, Event) -> State`, and events of one type (usually an enum) instead of actions of any
/// type.
///
/// ```swift
/// enum ButtonEvent { case plus, minus }
///
/// let counter: EventStore<Int, ButtonEvent>.Reducer = { state, event in
///   switch event {
///   case .plus: state + 1
///   case .minus: state - 1
///   }
/// }
/// let clamp: EventStore<Int, ButtonEvent>.Reducer = { state, _ in min(max(state, 0), 10) }
///
/// let store = EventStore<Int, ButtonEvent>(state: 1, reducers: [counter, clamp])
/// store.consume(event: .plus)
/// store.value                                  // 2
/// let label = store.map { "\($0) items" }      // a StoreSelection<String>
/// for await text in label { print(text) }      // "2 items", then each change
/// ```
///
/// The reducers are applied in order, each to the state the previous one returned: later
/// reducers see, and may correct, what earlier ones did (the clamp above). ``InoutReducer`` is
/// the fast path, as for ``Store``: the state is changed where it lies.
///
/// An event store is a ``Store`` underneath (``store``), whose actions are ``EventAction``s:
/// everything said of ``Store`` holds. It is safe to use from any thread or task, events are
/// applied one at a time in a total order, reducers, middleware and observers never run while a
/// lock is held, and `consume(event:)` returns once the event has been applied (with the same
/// exceptions as `dispatch`; see <doc:ThreadingModel>). See <doc:EventStores>.
public final class EventStore<State: Sendable, Event: Sendable>: Sendable {
  /// A reducer: the state that results from `event` applied to `state`.
  public typealias Reducer = @Sendable (_ state: State, _ event: Event) -> State
  /// An in-place reducer: mutates `state` to apply `event`. The fast path.
  public typealias InoutReducer = @Sendable (_ state: inout State, _ event: Event) -> Void

  /// The underlying store, whose actions are ``EventAction``s: for code written for ``Store``
  /// (subscribers, `Subscription` chains, a leader of the store's processes).
  public let store: Store<State>

  /// Creates a store whose reducers return the new state, applied in order (the form of
  /// Redux-ReactiveSwift's `Store(state:reducers:)`).
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - reducers: Applied in order to each event; each gets what the previous one returned.
  ///   - middleware: Middleware, outermost first.
  public convenience init(
    state: State, reducers: [Reducer], middleware: [EventMiddleware<State, Event>] = []
  ) {
    self.init(
      state: state,
      inPlaceReducers: reducers.map { reduce in { state, event in state = reduce(state, event) } },
      middleware: middleware)
  }

  /// Creates a store whose reducers change the state in place, applied in order.
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - inPlaceReducers: Applied in order to each event.
  ///   - middleware: Middleware, outermost first.
  public init(
    state: State, inPlaceReducers: [InoutReducer],
    middleware: [EventMiddleware<State, Event>] = []
  ) {
    let reduce = Self.chain(inPlaceReducers)
    self.store = Store(
      reducer: { state, action in
        if let action = action as? EventAction<Event> {
          reduce(&state, action.event)
        }
      }, state: state, middleware: middleware.map(storeMiddleware))
  }

  /// An event store over `store`, such as the replica of a follower process: its events are
  /// dispatched to it as ``EventAction``s, and reduced by whatever reduces that store's actions
  /// (a follower forwards them to its leader, whose store was made by an event store).
  ///
  /// `store` must have a state.
  public init(store: Store<State>) {
    precondition(store.state != nil, "Tandem: an event store needs a store with a state")
    self.store = store
  }

  /// One in-place reducer applying `reducers` in order.
  private static func chain(_ reducers: [InoutReducer]) -> InoutReducer {
    switch reducers.count {
    case 0: { _, _ in }
    case 1: reducers[0]
    default:
      { state, event in
        for reduce in reducers {
          reduce(&state, event)
        }
      }
    }
  }

  /// The current state.
  public var value: State {
    store.state!
  }

  /// Sends `event` through the middleware to the reducers; returns once it has been applied and
  /// its observers notified (see `Store.dispatch(_:)` for the exceptions).
  public func consume(event: Event) {
    store.dispatch(EventAction(event))
  }

  /// A read-only value derived from the state by `transform`: read it with
  /// ``StoreSelection/value``, observe it as an `AsyncSequence`, derive more with `map`.
  ///
  /// `transform` runs when the value is read, and on the thread applying each event for each
  /// observer; keep it cheap.
  public func map<Value: Sendable>(
    _ transform: @escaping @Sendable (State) -> Value
  ) -> StoreSelection<Value> {
    store.selection(transform)
  }

  /// A read-only `Equatable` value derived from the state by `transform`, whose observation
  /// skips a value equal to the previous one.
  public func map<Value: Sendable & Equatable>(
    _ transform: @escaping @Sendable (State) -> Value
  ) -> StoreSelection<Value> {
    store.selection(transform)
  }

  /// The value at `keyPath` in the state; see `map(_:)`.
  public func map<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreSelection<Value> {
    map { $0[keyPath: keyPath] }
  }

  /// The `Equatable` value at `keyPath` in the state, skipping repeats when observed.
  public func map<Value: Sendable & Equatable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreSelection<Value> {
    map { $0[keyPath: keyPath] }
  }

  /// The states as an `AsyncSequence`: the current one, then each new one (the latest, for a
  /// slow consumer). See ``StoreObservation``.
  public var states: StoreObservation<State> {
    store.values { $0 }
  }
}

extension EventStore where State: Equatable {
  /// The states as an `AsyncSequence`, skipping a state equal to the previous one.
  public var states: StoreObservation<State> {
    store.values { $0 }
  }
}
