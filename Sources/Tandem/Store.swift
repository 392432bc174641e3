import Synchronization

/// The single source of truth: holds the state, applies dispatched actions with its reducer, and
/// notifies subscribers.
///
/// ```swift
/// struct AppState { var counter = 0 }
/// struct Increment: Action {}
///
/// let store = Store<AppState>(reducer: { state, action in
///   if action is Increment { state.counter += 1 }
/// }, state: AppState())
///
/// store.subscribe(counterLabel) { $0.select(\.counter) }
/// store.dispatch(Increment())
/// ```
///
/// It has ReSwift's API and semantics, and is safe to use from any thread or task: dispatches are
/// applied one at a time in a total order by one draining thread, reducers, middleware and
/// subscribers never run while a lock is held, and an action dispatched from a subscriber is
/// applied after the current notification round. See <doc:ThreadingModel>.
///
/// The class is `open`, as in ReSwift; subclasses must keep the `required` initializer.
open class Store<State: Sendable>: StoreType, @unchecked Sendable {
  /// ReSwift's deprecated synchronous action creator: returns an action to dispatch, or `nil`.
  public typealias ActionCreator = (_ state: State, _ store: Store) -> (any Action)?

  /// ReSwift's deprecated asynchronous action creator: calls back with an action creator later.
  public typealias AsyncActionCreator = (
    _ state: State, _ store: Store,
    _ actionCreatorCallback: @escaping ((ActionCreator) -> Void)
  ) -> Void

  /// Called with the state after an asynchronous action creator's action was dispatched.
  public typealias DispatchCallback = (State) -> Void

  /// The reducer, when it is ReSwift-style.
  let returningReducer: Reducer<State>?
  /// The reducer, when it is in-place.
  let inPlaceReducer: InoutReducer<State>?
  /// Whether `Equatable` selections skip repeated values without an explicit `skipRepeats()`.
  @usableFromInline let automaticallySkipsRepeats: Bool
  /// Shared by the store's subscriptions: the notification round and shared comparisons.
  @usableFromInline let subscriptionContext = SubscriptionContext()
  /// The queue, the subscriptions and the dispatch function. Never held while user code runs.
  let core: Mutex<StoreCore>
  /// The state. Written only by the draining thread: while `core.reducing` is true it belongs to
  /// the drainer alone; otherwise others read it with `core` locked and the drainer writes it
  /// with `core` locked. (Outside the non-generic core, so the hot path needs no generic
  /// metadata.)
  let cell: StateCell<State>
  /// Whether there is middleware, so a dispatch without it skips reading `dispatchFunction`
  /// under the lock.
  let hasMiddleware = Atomic<Bool>(false)
  /// The middleware as set; guarded by `core`.
  @exclusivity(unchecked) final var middlewareStorage: [Middleware<State>] = []
  /// Called after each reducer application; guarded by `core`.
  @exclusivity(unchecked) final var reductionObserver: ReductionObserver<State>?
  /// Whether the observer gets the state before each reduction; guarded by `core`.
  @exclusivity(unchecked) final var reductionObserverSeesOldState = true
  /// Whether a ReSwift-style reducer runs, which may read ``state`` (the state before the
  /// action, still in the cell). Written and read only by the draining thread.
  @exclusivity(unchecked) final var lendsState = false

  /// Creates a store with a ReSwift-style reducer.
  ///
  /// - Parameters:
  ///   - reducer: Returns the new state for an action and the current state.
  ///   - state: The initial state. When `nil`, the store dispatches ``TandemInit`` through the
  ///     middleware and the reducer returns the initial state.
  ///   - middleware: Middleware, outermost first.
  ///   - automaticallySkipsRepeats: Whether subscriptions to `Equatable` values skip repeated
  ///     values without an explicit `skipRepeats()`.
  public required init(
    reducer: @escaping Reducer<State>,
    state: State?,
    middleware: [Middleware<State>] = [],
    automaticallySkipsRepeats: Bool = true
  ) {
    self.returningReducer = reducer
    self.inPlaceReducer = nil
    self.automaticallySkipsRepeats = automaticallySkipsRepeats
    self.core = Mutex(StoreCore())
    self.cell = StateCell(state)
    self.middleware = middleware
    if state == nil {
      dispatch(TandemInit())
    }
  }

  /// Creates a store with an in-place reducer, the fast path.
  ///
  /// - Parameters:
  ///   - reducer: Mutates the state to apply an action.
  ///   - state: The initial state.
  ///   - middleware: Middleware, outermost first.
  ///   - automaticallySkipsRepeats: Whether subscriptions to `Equatable` values skip repeated
  ///     values without an explicit `skipRepeats()`.
  public init(
    reducer: @escaping InoutReducer<State>,
    state: State,
    middleware: [Middleware<State>] = [],
    automaticallySkipsRepeats: Bool = true
  ) {
    self.returningReducer = nil
    self.inPlaceReducer = reducer
    self.automaticallySkipsRepeats = automaticallySkipsRepeats
    self.core = Mutex(StoreCore())
    self.cell = StateCell(state)
    self.middleware = middleware
  }

  /// The current state.
  ///
  /// `nil` only when the store was created without a state and its init action has not been
  /// reduced (a middleware swallowed it). Readable from any thread; while a reducer runs on
  /// another thread, the read waits for it to finish.
  ///
  /// Inside a ReSwift-style ``Reducer``, it is the state before the action, as in ReSwift (the
  /// reducer's `state` argument is the same value). Inside an ``InoutReducer`` or a
  /// `modifyState` body, reading it traps: the state is being mutated where it lies, and a copy
  /// of it for such a read would cost every action a copy of the state. Use the reducer's
  /// `state` argument, or, for code ported from ReSwift that reads the store, keep a
  /// ReSwift-style reducer.
  public var state: State! {
    let thread = ThreadIdentity.current
    while true {
      var state: State?
      let read: StateRead = core.withLock { core in
        guard core.reducing else {
          state = cell.value
          return .done
        }
        guard core.drainer != thread else {
          guard lendsState else { return .insideReducer }
          state = cell.value
          return .done
        }
        let wakeup = Wakeup()
        core.readers.append(wakeup)
        return .wait(wakeup)
      }
      switch read {
      case .done:
        return state
      case .insideReducer:
        fatalError(
          "Tandem: an in-place reducer (or a modifyState body) read Store.state. Use the "
            + "reducer's state argument: the state is being mutated where it lies, and reading "
            + "the store from it would need a copy of the state for every action.")
      case .wait(let wakeup):
        wakeup.wait()
      }
    }
  }

  /// The middleware, outermost first. Setting it rebuilds the dispatch function; dispatches
  /// already past the middleware are not affected.
  open var middleware: [Middleware<State>] {
    get { core.withLock { _ in middlewareStorage } }
    set {
      let function = makeDispatchFunction(newValue)
      core.withLock { core in
        middlewareStorage = newValue
        core.dispatchFunction = function
      }
      hasMiddleware.store(function != nil, ordering: .releasing)
    }
  }

  /// The function `dispatch(_:)` calls: the middleware chain, ending in
  /// `_defaultDispatch(action:)`.
  ///
  /// Settable, as in ReSwift: a function set here replaces the middleware chain for later
  /// dispatches (it usually wraps the function it replaces, and ends in
  /// `_defaultDispatch(action:)` to reach the reducer), until ``middleware`` is set again.
  /// Setting `nil` makes `dispatch(_:)` go straight to `_defaultDispatch(action:)`.
  ///
  /// ```swift
  /// let next = store.dispatchFunction!
  /// store.dispatchFunction = { action in
  ///   print("dispatching", action)
  ///   next(action)
  /// }
  /// ```
  public var dispatchFunction: DispatchFunction! {
    get {
      if let function = core.withLock({ $0.dispatchFunction }) {
        return function
      }
      return { [weak self] action in self?._defaultDispatch(action: action) }
    }
    set {
      core.withLock { core in core.dispatchFunction = newValue }
      hasMiddleware.store(newValue != nil, ordering: .releasing)
    }
  }

  /// Dispatches `action` through the middleware to the reducer, then notifies subscribers.
  ///
  /// Returns once the action has been applied and its subscribers notified, except on a thread
  /// that is already draining a store, where the action may be queued and the call return at
  /// once:
  /// - On the thread notifying this store's subscribers (a dispatch from `newState`), the action
  ///   is applied right after the current notification round, before the outer dispatch
  ///   returns.
  /// - On a thread draining another store (a dispatch from that store's reducer, middleware or
  ///   subscribers) while another thread drains this one, the action is queued for that thread,
  ///   which applies it in order and notifies this store's subscribers: waiting for it could
  ///   deadlock, as it may be waiting for the calling thread. When no one drains this store, the
  ///   calling thread applies the action before returning.
  ///
  /// See <doc:ThreadingModel>.
  open func dispatch(_ action: any Action) {
    if hasMiddleware.load(ordering: .acquiring),
      let function = core.withLock({ $0.dispatchFunction })
    {
      function(action)
    } else {
      _defaultDispatch(action: action)
    }
  }

  /// The last step of dispatch, after the middleware: queues `action` for the reducer and applies
  /// it (see `dispatch(_:)` for when it returns).
  // swift-format-ignore: AlwaysUseLowerCamelCase
  open func _defaultDispatch(action: any Action) {
    submitAction(action)
  }

  /// Subscribes `subscriber` to the whole state.
  ///
  /// The subscriber is held weakly, receives the current state now, then every new state.
  /// Subscribing an object again replaces its subscription.
  open func subscribe<S: StoreSubscriber>(_ subscriber: S)
  where S.StoreSubscriberStateType == State {
    subscribe(subscriber, transform: nil)
  }

  /// Subscribes `subscriber` to what `transform` selects from the state.
  ///
  /// ```swift
  /// store.subscribe(subscriber) { $0.select(\.counter) }
  /// ```
  ///
  /// When the selected type is `Equatable`, an overload adds `skipRepeats()` automatically
  /// (unless the store was created with `automaticallySkipsRepeats: false`).
  open func subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState {
    let root = Subscription<State>(context: subscriptionContext)
    _subscribe(subscriber, originalSubscription: root, transformedSubscription: transform?(root))
  }

  /// Ends the subscription of `subscriber`: no notification to it starts after this returns.
  open func unsubscribe(_ subscriber: AnyStoreSubscriber) {
    let id = ObjectIdentifier(subscriber)
    core.withLock { core in
      core.subscriptions.remove(id: id)?.cancel()
      core.queue.forEach { pending in
        if case .subscription(let box) = pending.work, box.id == id {
          box.cancel()
        }
      }
    }
  }

  /// Dispatches the action `actionCreatorProvider` returns, if any.
  @available(*, deprecated, message: "Use a middleware or a thunk instead")
  open func dispatch(_ actionCreatorProvider: @escaping ActionCreator) {
    if let action = actionCreatorProvider(state, self) {
      dispatch(action)
    }
  }

  /// Dispatches the action that `asyncActionCreatorProvider` provides later.
  @available(*, deprecated, message: "Use a middleware or a thunk instead")
  open func dispatch(_ asyncActionCreatorProvider: @escaping AsyncActionCreator) {
    dispatchAsync(asyncActionCreatorProvider, callback: nil)
  }

  /// Dispatches the action that `actionCreatorProvider` provides later, then calls `callback`
  /// with the state.
  @available(*, deprecated, message: "Use a middleware or a thunk instead")
  open func dispatch(
    _ actionCreatorProvider: @escaping AsyncActionCreator, callback: DispatchCallback?
  ) {
    dispatchAsync(actionCreatorProvider, callback: callback)
  }

  private func dispatchAsync(
    _ actionCreatorProvider: @escaping AsyncActionCreator, callback: DispatchCallback?
  ) {
    actionCreatorProvider(state, self) { actionProvider in
      if let action = actionProvider(self.state, self) {
        self.dispatch(action)
        callback?(self.state)
      }
    }
  }
}

/// What a read of ``Store/state`` found under the lock.
private enum StateRead: Sendable {
  case done
  case insideReducer
  case wait(Wakeup)
}
