/// Called by the drainer after each reducer application, before subscribers are notified.
///
/// `oldState` is `nil` for the init action of a store created without a state, and for every
/// action when the observer was installed without the old state; `context` is the one the
/// action was dispatched in (``Store/dispatch(_:context:)``), if any.
package typealias ReductionObserver<State> =
  @Sendable (
    _ action: any Action, _ oldState: State?, _ newState: State, _ context: (any Sendable)?
  ) -> Void

/// A change to a store's state made where it lies (``Store/modifyState(_:)``): the body gets the
/// state `inout` and returns whether it changed it.
///
/// Unchecked `Sendable`: the body runs exactly once, on the draining thread, while the thread
/// that submitted it waits (or is that thread), so it is never called concurrently with its
/// submitter.
package struct StateModification<State>: @unchecked Sendable {
  let body: (inout State) -> Bool
}

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

  /// Changes the state where it lies, as a replica does when it applies a delta: `body` gets the
  /// state `inout` and returns whether it changed it; subscribers are notified (as after a
  /// dispatch) only if it did.
  ///
  /// Goes through the same ordered drain as ``replaceState(_:)`` and returns once `body` has run
  /// and its notification round is over. While `body` runs the state belongs to it alone (readers
  /// wait, as while a reducer runs), so a collection that nothing else holds changes without a
  /// copy. `body` runs on the draining thread: the calling thread, unless another thread is
  /// draining, in which case the caller waits for it.
  ///
  /// Calling this on a thread that is draining any store (from a reducer, middleware, subscriber
  /// or reduction observer, of this store or another) traps. From this store's drain, the change
  /// could only run after the caller returned; from another store's, waiting for this store's
  /// drainer could deadlock (it may be waiting for the calling thread), and not waiting would
  /// run `body` after the call returned.
  package func modifyState(_ body: @escaping (inout State) -> Bool) {
    precondition(
      DrainDepth.current == 0,
      "Tandem: modifyState was called on a thread draining a store (from a reducer, middleware, "
        + "subscriber or observer); call it where no store is being drained")
    submit(.modification(StateModification(body: body)), intercept: false)
  }

  /// Whether anyone subscribes to the store (async observations included): a replica with no
  /// subscribers may apply several deltas as one change, since no one sees the states between.
  package var hasSubscribers: Bool {
    core.withLock { !$0.subscriptions.isEmpty }
  }

  /// Dispatches `action` like ``dispatch(_:)``, tagging it and every action dispatched on this
  /// thread until it returns (by middleware or thunks, synchronously) with `context`, which the
  /// reduction observer receives. The leader passes the origin of a follower's action this way.
  /// What a subscriber dispatches when notified of a state is the store's own, without a
  /// context. It returns when ``dispatch(_:)`` would: called on a thread that drains no store
  /// (the leader's I/O thread), once the action has been applied; an action queued without
  /// waiting (from a thread draining another store) keeps its context.
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
  /// While an observer that `seesOldState` is installed, the store keeps the previous state for
  /// it, so an in-place reducer copies copy-on-write storage it mutates: the cost of having both
  /// states to diff. Without the old state (nil for it) an in-place reducer mutates as without
  /// an observer, as long as the observer keeps no copy of the new state either.
  /// The observer runs on the draining thread without a lock held; it may read ``state`` (the new
  /// state) but should not dispatch (that would be queued behind the current round).
  package func setReductionObserver(
    _ observer: ReductionObserver<State>?, seesOldState: Bool = true
  ) {
    core.withLock { core in
      reductionObserver = observer
      reductionObserverSeesOldState = seesOldState
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
