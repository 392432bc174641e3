/// How the store admits a unit of work: the drain protocol.
///
/// One thread at a time is the drainer. A thread that submits work while no one drains becomes
/// the drainer: it performs its work, then everything queued meanwhile, and returns when the
/// queue is empty. Work submitted from another thread while a drain runs is queued and that
/// thread waits until the drainer has performed it, unless it is itself draining a store (see
/// ``DrainDepth``): then it does not wait. Work submitted by the drainer itself (from a
/// subscriber or a middleware it runs) is queued and performed after the current notification
/// round, before the drainer returns; except a subscription, which the drainer installs at once
/// and sends the current state before `subscribe` returns, as ReSwift does (it is not part of
/// the round in progress). The mutex is held only to move work and state in and out.
enum Admission: Sendable {
  /// No one was draining: the caller is now the drainer.
  case drain
  /// Queued without waiting: for the drainer, which is the calling thread, or for a drainer on
  /// another thread while the calling thread drains another store.
  case queued
  /// Queued for the drainer on another thread; wait on the wakeup.
  case wait(Wakeup)
  /// The calling thread is the drainer, between reductions, and the work was a subscription:
  /// it is installed; send it the current state now.
  case installed(SubscriptionBox)
  /// The calling thread is running a reducer: a programmer error.
  case insideReducer
  /// An interceptor is installed: ask it first.
  case intercept(DispatchInterceptor)
}

extension StoreCore {
  /// Admits `work` submitted by `thread` (see ``Admission``).
  mutating func admit(
    _ work: inout StoreWork, from thread: ThreadIdentity, intercept: Bool
  ) -> Admission {
    // The drainer submits only from inside a drain (a subscriber notified, an observer): that
    // work is the store's own, not the context's, even while a contextual dispatch runs.
    if !dispatchContexts.isEmpty, case .action(let action, .none) = work, drainer != thread,
      let context = dispatchContexts[thread]
    {
      work = .action(action, context: context)
    }
    if intercept, let interceptor = dispatchInterceptor {
      return .intercept(interceptor)
    }
    guard let drainer else {
      self.drainer = thread
      return .drain
    }
    if drainer == thread {
      if reducing { return .insideReducer }
      if case .subscription(let box) = work {
        install(box)
        return .installed(box)
      }
      queue.append(PendingWork(work: work, done: nil))
      return .queued
    }
    // A thread draining a store must not wait for another drainer, which may be waiting for it.
    // (Never a modification: `modifyState` traps inside a drain, as its body must run first.)
    if DrainDepth.current != 0 {
      queue.append(PendingWork(work: work, done: nil))
      return .queued
    }
    let wakeup = Wakeup()
    queue.append(PendingWork(work: work, done: wakeup))
    return .wait(wakeup)
  }
}

extension StoreCore {
  /// Starts a drain for a dispatched action on the common path: no one drains, and there is no
  /// interceptor, reduction observer or dispatch context to consult. The caller becomes the
  /// drainer and its reducer owns the state; false (changing nothing) when the action needs the
  /// full ``admit(_:from:intercept:)``.
  mutating func beginPlainAction(by thread: ThreadIdentity) -> Bool {
    guard drainer == nil, dispatchInterceptor == nil, !hasReductionObserver,
      dispatchContexts.isEmpty
    else { return false }
    drainer = thread
    reducing = true
    return true
  }

  /// With the lock held, as the drainer starts `work`: an action's reducer (or a modification)
  /// owns the state from here on, and a subscription is installed. Returns whether the reduction
  /// is to be reported to the observer.
  mutating func begin(_ work: StoreWork) -> Bool {
    switch work {
    case .action:
      reducing = true
      return hasReductionObserver
    case .modification:
      reducing = true
      return false
    case .subscription(let box):
      install(box)
      return false
    case .replacement:
      return false
    }
  }

  /// Adds `box` at the end of the subscriptions, replacing the same subscriber's earlier one,
  /// unless it was cancelled while queued. Done in the critical section that takes it off the
  /// queue, so `unsubscribe` always finds the box in the queue or in the subscriptions.
  mutating func install(_ box: SubscriptionBox) {
    guard !box.isCancelled else { return }
    subscriptions.append(box)
  }

  /// With the lock held, after a unit of work: takes the next one and begins it, or ends the
  /// drain and returns `nil` when the queue is empty.
  mutating func next() -> (work: PendingWork, observing: Bool)? {
    guard let work = queue.popFirst() else {
      drainer = nil
      return nil
    }
    return (work, begin(work.work))
  }
}

extension Store {
  /// Submits an action that has been through the middleware: the drain protocol for dispatches.
  ///
  /// The common case (no one else drains, no interceptor, observer or dispatch context) takes the
  /// lock once to start and once to finish (once more after a notification round, if there are
  /// subscribers), and never wraps the action into a ``StoreWork``.
  func submitAction(_ action: any Action) {
    let thread = ThreadIdentity.current
    guard core.withLock({ $0.beginPlainAction(by: thread) }) else {
      submit(.action(action, context: nil), intercept: true)
      return
    }
    let drain = DrainDepth.enter()
    if apply(action) {
      drainQueue()
    }
    drain.leave()
  }

  /// Submits `work` to the drain protocol; `intercept` asks the dispatch interceptor first.
  @usableFromInline func submit(_ submitted: StoreWork, intercept: Bool) {
    let thread = ThreadIdentity.current
    var work = submitted
    var observing = false
    var admission = core.withLock { core in
      let admission = core.admit(&work, from: thread, intercept: intercept)
      if case .drain = admission { observing = core.begin(work) }
      return admission
    }
    if case .intercept(let interceptor) = admission {
      if case .action(let action, _) = work, interceptor(action) { return }
      admission = core.withLock { core in
        let admission = core.admit(&work, from: thread, intercept: false)
        if case .drain = admission { observing = core.begin(work) }
        return admission
      }
    }
    switch admission {
    case .drain:
      let drain = DrainDepth.enter()
      if perform(work, observing: observing) {
        drainQueue()
      }
      drain.leave()
    case .queued:
      return
    case .installed(let box):
      notify([box])
    case .wait(let wakeup):
      wakeup.wait()
    case .insideReducer:
      Self.trapInsideReducer(work)
    case .intercept:
      preconditionFailure("Tandem: an interceptor was asked twice")
    }
  }

  private static func trapInsideReducer(_ work: StoreWork) -> Never {
    switch work {
    case .action(let action, _):
      fatalError(
        "Tandem: a reducer dispatched \(action). Reducers must be pure functions of the state "
          + "and the action; dispatch from a middleware, a thunk or a subscriber instead.")
    case .subscription:
      fatalError("Tandem: a reducer subscribed to the store. Reducers must not touch the store.")
    case .replacement, .modification:
      fatalError("Tandem: a reducer replaced the store's state. Reducers must not touch the store.")
    }
  }

  /// Performs queued work in order until the queue is empty and the drain is over. The caller is
  /// the drainer, between two units of work.
  private func drainQueue() {
    while let (pending, observing) = core.withLock({ $0.next() }) {
      let more = perform(pending.work, observing: observing)
      pending.done?.signal()
      if !more { return }
    }
  }

  /// Performs `work` (already begun); false when the drain ended with it (nothing was left to
  /// notify or queued), true when the caller must go on with the queue.
  private func perform(_ work: StoreWork, observing: Bool) -> Bool {
    switch work {
    case .action(let action, let context):
      guard observing else { return apply(action) }
      applyObserved(action, context: context)
    case .replacement(let value):
      replace(with: value)
    case .modification(let modification):
      return modify(with: modification)
    case .subscription(let box):
      // Installed by `begin`; the first notification, unless it was cancelled meanwhile.
      notify([box])
    }
    return true
  }

  /// Reduces `action` (already begun) in the state cell, so an in-place reducer mutates it
  /// without copying; then notifies subscribers. False when the drain ended with it: nothing to
  /// notify and nothing queued, found in the same critical section that ends the reduction.
  private func apply(_ action: any Action) -> Bool {
    // `begin` set `reducing`: until it is false again the cell belongs to this thread.
    reduce(action)
    guard let subscriptions = endReduction(mayEndDrain: true) else { return false }
    notify(subscriptions)
    return true
  }

  /// ``apply(_:)`` with a reduction observer to call, which gets `context`. Out of line: it works
  /// with `Optional<State>`, whose generic metadata unspecialized code looks up at the entry of
  /// the function that uses it.
  @inline(never)
  private func applyObserved(_ action: any Action, context: (any Sendable)?) {
    let (observer, seesOldState) = core.withLock { _ in
      (reductionObserver, reductionObserverSeesOldState)
    }
    let oldState = observer == nil || !seesOldState ? nil : cell.value
    reduce(action)
    let subscriptions = endReduction(mayEndDrain: false) ?? []
    if let observer, let newState = cell.value {
      observer(action, oldState, newState, context)
    }
    notify(subscriptions)
  }

  /// Runs the reducer on the state in the cell.
  private func reduce(_ action: any Action) {
    if let reduce = inPlaceReducer {
      precondition(cell.isInitialized, "Tandem: a store with an in-place reducer has no state")
      reduce(&cell.pointer.pointee, action)
    } else if let reduce = returningReducer {
      reduceReturning(action, with: reduce)
    }
  }

  /// Runs a ReSwift-style reducer on a copy of the state (the reducer gets it as `State?`) and
  /// puts the result in the cell. The state stays in the cell meanwhile, so the reducer may read
  /// `store.state`, as in ReSwift; the copy costs no more than moving it out did, since a
  /// reducer that changes its argument copies it either way. Out of line for the same reason as
  /// ``applyObserved(_:context:)``, so the in-place path does not pay for `Optional<State>`.
  @inline(never)
  private func reduceReturning(_ action: any Action, with reduce: Reducer<State>) {
    lendsState = true
    let newState = reduce(action, cell.value)
    lendsState = false
    cell.set(newState)
  }

  /// After a reducer or a modification: the state may be read again, and readers waiting for it
  /// are woken. Returns the subscriptions to notify, or `nil` when `mayEndDrain` and the drain
  /// ended here because there is no subscription and nothing queued.
  private func endReduction(mayEndDrain: Bool) -> [SubscriptionBox?]? {
    var readers: [Wakeup]?
    let subscriptions: [SubscriptionBox?]? = core.withLock { core in
      core.reducing = false
      if !core.readers.isEmpty {
        readers = core.readers
        core.readers = []
      }
      if mayEndDrain, core.subscriptions.isEmpty, core.queue.isEmpty {
        core.drainer = nil
        return nil
      }
      return core.subscriptions.slots
    }
    if let readers {
      for reader in readers {
        reader.signal()
      }
    }
    return subscriptions
  }

  /// Replaces the state with `value` (a `State`) and notifies subscribers.
  private func replace(with value: any Sendable) {
    guard let state = value as? State else {
      preconditionFailure("Tandem: a replacement state of type \(type(of: value))")
    }
    let subscriptions = core.withLock { core in
      cell.set(state)
      return core.subscriptions.slots
    }
    notify(subscriptions)
  }

  /// Runs a modification (a `StateModification`, already begun) on the state in the cell, then
  /// notifies subscribers if it changed the state. False when the drain ended with it.
  private func modify(with work: any Sendable) -> Bool {
    guard let modification = work as? StateModification<State> else {
      preconditionFailure("Tandem: a state modification of type \(type(of: work))")
    }
    precondition(cell.isInitialized, "Tandem: a store without a state cannot be modified")
    let changed = modification.body(&cell.pointer.pointee)
    guard let subscriptions = endReduction(mayEndDrain: !changed) else { return false }
    if changed {
      notify(subscriptions)
    }
    return true
  }

  /// Notifies `subscriptions` in order of the state in the cell, then drops those whose
  /// subscriber was released.
  ///
  /// The subscriptions read the state where it lies: while the drainer notifies, nothing writes
  /// the cell (work submitted from a subscriber is queued until the round is over).
  func notify(_ subscriptions: [SubscriptionBox?]) {
    guard !subscriptions.isEmpty, cell.isInitialized else { return }
    subscriptionContext.round &+= 1
    let state = UnsafeRawPointer(cell.pointer)
    var released = false
    // Every box of this store was made by `_subscribe` for a chain of its state type.
    for case let box? in subscriptions where !box.notify(state) {
      released = true
    }
    if released {
      core.withLock { core in core.subscriptions.removeReleased() }
    }
  }

  /// The middleware chain for `middleware`, ending in `_defaultDispatch`; `nil` when empty.
  func makeDispatchFunction(_ middleware: [Middleware<State>]) -> DispatchFunction? {
    guard !middleware.isEmpty else { return nil }
    let dispatch: DispatchFunction = { [weak self] action in self?.dispatch(action) }
    let getState: @Sendable () -> State? = { [weak self] in self?.state }
    let last: DispatchFunction = { [weak self] action in self?._defaultDispatch(action: action) }
    return middleware.reversed().reduce(last) { next, middleware in
      middleware(dispatch, getState)(next)
    }
  }
}
