/// An action that carries work to run instead of being reduced: ReSwift-Thunk's `Thunk`, with an
/// `async` form.
///
/// Dispatch a thunk to a store whose middleware includes ``createThunkMiddleware()`` (or a
/// ``ThunkMiddleware``). The middleware runs the thunk's body with the store's `dispatch` and
/// `getState` and never passes the thunk on to the reducer.
///
/// ```swift
/// let incrementIfOdd = Thunk<AppState> { dispatch, getState in
///   if let counter = getState()?.counter, counter % 2 == 1 {
///     dispatch(Increment())
///   }
/// }
///
/// let loadUser = Thunk<AppState>(id: "user") { dispatch, getState in
///   dispatch(SetLoading(true))
///   let user = try? await api.user()
///   dispatch(SetUser(user))
/// }
/// store.dispatch(loadUser)
/// ```
///
/// A synchronous body runs on the dispatching thread before `dispatch` returns. An `async` body
/// runs in a new task; `dispatch` returns at once. Dispatches from a body are synchronous: after
/// `dispatch(a)` returns, `getState()` shows `a` applied (unless the thunk was dispatched from a
/// subscriber, or anything else a store's drain runs; see <doc:ThreadingModel>).
///
/// A running `async` thunk can be cancelled (see <doc:Thunks>): its task is cancelled, and what
/// it dispatches after that is dropped.
public struct Thunk<State: Sendable>: Action {
  /// Dispatches an action through the whole middleware chain of the store.
  public typealias Dispatch = DispatchFunction
  /// Reads the store's current state (`nil` only before a store without an initial state has
  /// reduced its init action, or once the store is gone).
  public typealias GetState = @Sendable () -> State?

  /// The two kinds of body.
  enum Body: Sendable {
    case sync(@Sendable (_ dispatch: @escaping Dispatch, _ getState: @escaping GetState) -> Void)
    case async(
      @Sendable (_ dispatch: @escaping Dispatch, _ getState: @escaping GetState) async -> Void)
  }

  /// What the thunk does.
  let body: Body

  /// The identity a running `async` thunk can be cancelled by, or `nil`.
  public let id: ThunkID?

  /// Whether dispatching this thunk first cancels running thunks with the same ``id``.
  public let cancelsInFlight: Bool

  /// Creates a thunk whose body runs synchronously when it is dispatched.
  ///
  /// - Parameter body: Given the store's `dispatch` and `getState`.
  public init(
    body:
      @escaping @Sendable (_ dispatch: @escaping Dispatch, _ getState: @escaping GetState)
      -> Void
  ) {
    self.body = .sync(body)
    self.id = nil
    self.cancelsInFlight = false
  }

  /// Creates a thunk whose `async` body runs in a new task when it is dispatched.
  ///
  /// - Parameters:
  ///   - id: An identity to cancel it by, with ``ThunkMiddleware/cancel(id:)`` or by
  ///     dispatching ``CancelThunks``.
  ///   - cancelsInFlight: Whether dispatching it first cancels running thunks with the same `id`
  ///     (a search box that only cares about the latest query).
  ///   - operation: Given the store's `dispatch` and `getState`; should check for cancellation
  ///     (`Task.isCancelled`, `try Task.checkCancellation()`) where it makes sense.
  public init(
    id: ThunkID? = nil,
    cancelsInFlight: Bool = false,
    operation:
      @escaping @Sendable (_ dispatch: @escaping Dispatch, _ getState: @escaping GetState)
      async -> Void
  ) {
    self.body = .async(operation)
    self.id = id
    self.cancelsInFlight = cancelsInFlight
  }

  /// Whether the body is `async`.
  public var isAsync: Bool {
    if case .async = body { return true }
    return false
  }

  /// Runs the body to its end with `dispatch` and `getState`, in the calling task.
  ///
  /// The middleware does this for you; call it directly to run a thunk outside a store, as
  /// ``ThunkExpectation`` does.
  public func run(dispatch: @escaping Dispatch, getState: @escaping GetState) async {
    switch body {
    case .sync(let body): body(dispatch, getState)
    case .async(let operation): await operation(dispatch, getState)
    }
  }
}
