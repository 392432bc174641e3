import Synchronization

/// Runs the ``Thunk``s dispatched to a store, and keeps track of the running `async` ones so they
/// can be cancelled or awaited.
///
/// ```swift
/// let thunks = ThunkMiddleware<AppState>()
/// let store = Store(reducer: appReducer, state: AppState(), middleware: [thunks.middleware])
///
/// store.dispatch(loadUser)       // an async thunk: starts a task
/// thunks.cancel(id: "user")      // or store.dispatch(CancelThunks(id: "user"))
/// await thunks.waitUntilIdle()   // every started thunk has finished
/// ```
///
/// Use ``createThunkMiddleware()`` when you need neither.
///
/// The middleware runs a thunk whose state type is this middleware's and swallows it; it cancels
/// on ``CancelThunks`` and swallows that too; every other action goes on to the next middleware.
/// When the middleware is released (with its store), the thunks still running are cancelled.
public final class ThunkMiddleware<State: Sendable>: Sendable {
  /// The running `async` thunks by run number.
  private let running = Mutex<[UInt64: RunningThunk]>([:])
  /// The next run number.
  private let nextRun = Atomic<UInt64>(0)

  /// Creates a thunk middleware with no thunk running.
  public init() {}

  deinit {
    cancelAll()
  }

  /// The middleware to put in a store's middleware list.
  public var middleware: Middleware<State> {
    { [self] dispatch, getState in
      { next in
        { action in
          if let thunk = action as? Thunk<State> {
            self.start(thunk, dispatch: dispatch, getState: getState)
          } else if let cancel = action as? CancelThunks {
            if let id = cancel.id { self.cancel(id: id) } else { self.cancelAll() }
          } else {
            next(action)
          }
        }
      }
    }
  }

  /// How many `async` thunks are running.
  public var runningCount: Int {
    running.withLock { $0.count }
  }

  /// Cancels the running thunks whose identity is `id`: their tasks are cancelled, and what they
  /// dispatch from now on is dropped.
  public func cancel(id: ThunkID) {
    let cancelled = running.withLock { running in
      running.values.filter { $0.id == id }
    }
    for thunk in cancelled {
      thunk.cancel()
    }
  }

  /// Cancels every running thunk.
  public func cancelAll() {
    let cancelled = running.withLock { Array($0.values) }
    for thunk in cancelled {
      thunk.cancel()
    }
  }

  /// Returns once no `async` thunk is running, including thunks started while waiting.
  public func waitUntilIdle() async {
    while let task = running.withLock({ $0.min { $0.key < $1.key }?.value.task }) {
      await task.value
    }
  }

  /// Runs a synchronous thunk now, or starts an `async` one in a new task.
  private func start(
    _ thunk: Thunk<State>, dispatch: @escaping DispatchFunction,
    getState: @escaping @Sendable () -> State?
  ) {
    switch thunk.body {
    case .sync(let body):
      body(dispatch, getState)
    case .async(let operation):
      if thunk.cancelsInFlight, let id = thunk.id {
        cancel(id: id)
      }
      let run = nextRun.add(1, ordering: .relaxed).newValue
      let flag = CancellationFlag()
      let guardedDispatch: DispatchFunction = { action in
        if !flag.isCancelled { dispatch(action) }
      }
      running.withLock { running in
        // The task removes itself when done; it takes this lock, so it cannot do that before
        // it is in the table.
        let task = Task { [weak self] in
          await operation(guardedDispatch, getState)
          self?.finished(run)
        }
        running[run] = RunningThunk(id: thunk.id, task: task, flag: flag)
      }
    }
  }

  private func finished(_ run: UInt64) {
    running.withLock { _ = $0.removeValue(forKey: run) }
  }
}

/// A running `async` thunk.
private struct RunningThunk: Sendable {
  let id: ThunkID?
  let task: Task<Void, Never>
  let flag: CancellationFlag

  func cancel() {
    flag.cancel()
    task.cancel()
  }
}

/// Set once a thunk is cancelled; its dispatch function checks it.
private final class CancellationFlag: Sendable {
  private let value = Atomic<Bool>(false)

  var isCancelled: Bool { value.load(ordering: .acquiring) }

  func cancel() { value.store(true, ordering: .releasing) }
}

/// A middleware that runs the ``Thunk``s dispatched to the store: ReSwift-Thunk's
/// `createThunkMiddleware()`.
///
/// ```swift
/// let store = Store<AppState>(
///   reducer: appReducer, state: nil, middleware: [createThunkMiddleware()])
/// ```
///
/// Thunks it starts can still be cancelled by dispatching ``CancelThunks``. To cancel from
/// outside the store or to await running thunks, keep a ``ThunkMiddleware`` instead.
public func createThunkMiddleware<State: Sendable>() -> Middleware<State> {
  ThunkMiddleware<State>().middleware
}
