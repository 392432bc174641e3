/// Called by the drainer after each reducer application, before subscribers are notified.
///
/// `oldState` is `nil` only for the init action of a store created without a state; `context`
/// is the one the action was dispatched in (``Store/dispatch(_:context:)``), if any.
package typealias ReductionObserver<State> =
  @Sendable (
    _ action: any Action, _ oldState: State?, _ newState: State, _ context: (any Sendable)?
  ) -> Void

/// Sees each action after the middleware; returns `true` when it has taken the action (so the
/// store does not reduce it), `false` to let the store reduce it.
package typealias DispatchInterceptor = @Sendable (_ action: any Action) -> Bool

// Hooks for the replication layer (TandemSync); package-level, not public API.
extension Store {
  /// Replaces the whole state, as a replica does when it applies a delta or a snapshot.
  ///
  /// The replacement goes through the same ordered drain as dispatches: it is applied after
  /// work submitted before it, subscribers are notified exactly as after a dispatch (selections
  /// compare with the previous state's values, `Equatable` repeats are skipped), and it returns
  /// when a dispatch would (see `dispatch(_:)`). No reducer, middleware, interceptor or
  /// reduction observer runs.
  package func replaceState(_ newState: State) {
    submit(.replacement(newState), intercept: false)
  }

  /// Dispatches `action` like ``dispatch(_:)``, tagging it and every action dispatched on this
  /// thread until it returns (by middleware or thunks, synchronously) with `context`, which the
  /// reduction observer receives. The leader passes the origin of a follower's action this way.
  package func dispatch(_ action: any Action, context: any Sendable) {
    let thread = ThreadIdentity.current
    let outer = core.withLock { $0.dispatchContexts.updateValue(context, forKey: thread) }
    defer {
      core.withLock { core in core.dispatchContexts[thread] = outer }
    }
    dispatch(action)
  }

  /// Installs (or with `nil` removes) the observer the drainer calls after each reducer
  /// application with the action, the previous state and the new state, in the total order of
  /// dispatches, before the subscribers of that state are notified.
  ///
  /// While an observer is installed, the store keeps the previous state for it, so an in-place
  /// reducer copies copy-on-write storage it mutates: the cost of having both states to diff.
  /// The observer runs on the draining thread without a lock held; it may read ``state`` (the new
  /// state) but should not dispatch (that would be queued behind the current round).
  package func setReductionObserver(_ observer: ReductionObserver<State>?) {
    core.withLock { core in
      reductionObserver = observer
      core.hasReductionObserver = observer != nil
    }
  }

  /// Installs (or with `nil` removes) the interceptor that sees every action after the
  /// middleware and before it is queued for the reducer.
  ///
  /// A replica installs one that forwards actions to the leader and returns `true`, so user
  /// middleware still sees every action first, exactly as with a local store, and `dispatch`
  /// returns once the interceptor does. It runs on the dispatching thread without a lock held.
  /// The init action of a store created without a state is dispatched before any interceptor
  /// can be installed, so it is always reduced locally. ``replaceState(_:)`` bypasses it.
  package func setDispatchInterceptor(_ interceptor: DispatchInterceptor?) {
    core.withLock { $0.dispatchInterceptor = interceptor }
  }
}
