/// A function that dispatches an action: `dispatch(_:)` or the next step of a middleware
/// chain.
public typealias DispatchFunction = @Sendable (any Action) -> Void

/// A ReSwift middleware: sees every action before the reducer, and may pass it on, change it,
/// dispatch others or swallow it.
///
/// A middleware is a function of the store's `dispatch` and `getState` that returns a function of
/// the `next` step, which returns the dispatch function of this step. The first middleware of
/// ``Store/middleware`` sees an action first.
///
/// ```swift
/// let logger: Middleware<AppState> = { dispatch, getState in
///   return { next in
///     return { action in
///       print("dispatching", action)
///       next(action)  // omit to swallow the action
///     }
///   }
/// }
/// ```
///
/// Middleware runs on the thread that calls `dispatch`, never while a lock is held, so it may
/// dispatch, read the state and subscribe. A dispatch made from a middleware returns once its action
/// has been applied (unless that thread is notifying subscribers; see <doc:ThreadingModel>).
public typealias Middleware<State> =
  @Sendable (
    _ dispatch: @escaping DispatchFunction, _ getState: @escaping @Sendable () -> State?
  ) -> @Sendable (_ next: @escaping DispatchFunction) -> DispatchFunction
