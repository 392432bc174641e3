/// How the store admits a unit of work: the drain protocol.
///
/// One thread at a time is the drainer. A thread that submits work while no one drains becomes
/// the drainer: it performs its work, then everything queued meanwhile, and returns when the
/// queue is empty. Work submitted from another thread while a drain runs is queued and that
/// thread waits until the drainer has performed it. Work submitted by the drainer itself (from a
/// subscriber or a middleware it runs) is queued and performed after the current notification
/// round, before the drainer returns. The mutex is held only to move work and state in and out.
enum Admission: Sendable {
  /// No one was draining: the caller is now the drainer.
  case drain
  /// Queued for the drainer, which is the calling thread.
  case queued
  /// Queued for the drainer on another thread; wait on the wakeup.
  case wait(Wakeup)
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
    if !dispatchContexts.isEmpty, case .action(let action, .none) = work,
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
      queue.append(PendingWork(work: work, done: nil))
      return .queued
    }
    let wakeup = Wakeup()
    queue.append(PendingWork(work: work, done: wakeup))
    return .wait(wakeup)
  }
}

extension Store {
  /// Submits `work` to the drain protocol; `intercept` asks the dispatch interceptor first.
  @usableFromInline func submit(_ submitted: StoreWork, intercept: Bool) {
    let thread = ThreadIdentity.current
    var work = submitted
    var observing = false
    var admission = core.withLock { core in
      let admission = core.admit(&work, from: thread, intercept: intercept)
      if case .drain = admission { observing = Self.beginLocked(work, &core) }
      return admission
    }
    if case .intercept(let interceptor) = admission {
      if case .action(let action, _) = work, interceptor(action) { return }
      admission = core.withLock { core in
        let admission = core.admit(&work, from: thread, intercept: false)
        if case .drain = admission { observing = Self.beginLocked(work, &core) }
        return admission
      }
    }
    switch admission {
    case .drain:
      drain(startingWith: work, observing: observing)
    case .queued:
      return
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

  /// With the lock held, as the drainer starts `work`: an action's reducer (or a modification)
  /// owns the state from here on. Returns whether the reduction is to be reported to the
  /// observer.
  private static func beginLocked(_ work: StoreWork, _ core: inout StoreCore) -> Bool {
    switch work {
    case .action:
      core.reducing = true
      return core.hasReductionObserver
    case .modification:
      core.reducing = true
      return false
    case .replacement, .subscription:
      return false
    }
  }

  /// With the lock held, after a unit of work: moves the next one into `work` and begins it
  /// (setting `observing`), or ends the drain and returns false when the queue is empty.
  private static func finishLocked(
    _ core: inout StoreCore, next work: inout PendingWork, observing: inout Bool
  ) -> Bool {
    guard core.queue.popFirst(into: &work) else {
      core.drainer = nil
      return false
    }
    observing = beginLocked(work.work, &core)
    return true
  }

  /// Performs `first` (already begun), then queued work in order, until the queue is empty.
  private func drain(startingWith first: StoreWork, observing: Bool) {
    var current = PendingWork(work: first, done: nil)
    var observing = observing
    var more: Bool
    if case .action(let action, let context) = first {
      // The common case, without copying the work around first.
      more = apply(
        action, context: context, observing: observing, next: &current,
        nextObserving: &observing)
    } else {
      more = perform(&current, observing: &observing)
    }
    while more {
      let done = current.done
      more = perform(&current, observing: &observing)
      done?.signal()
    }
  }

  /// Performs `work` (already begun), then replaces it with the next work; false when there is
  /// none and the drain is over.
  private func perform(_ work: inout PendingWork, observing: inout Bool) -> Bool {
    switch work.work {
    case .action(let action, let context):
      return apply(
        action, context: context, observing: observing, next: &work, nextObserving: &observing)
    case .replacement(let value):
      replace(with: value)
    case .modification(let modification):
      modify(with: modification)
    case .subscription(let box):
      install(box)
    }
    return core.withLock { Self.finishLocked(&$0, next: &work, observing: &observing) }
  }

  /// Reduces `action` in the state cell, so an in-place reducer mutates it without copying;
  /// then calls the observer, notifies subscribers, and moves the next work into `next` (in the
  /// same critical section when there is no one to notify); false when the drain is over.
  private func apply(
    _ action: any Action, context: (any Sendable)?, observing: Bool, next: inout PendingWork,
    nextObserving: inout Bool
  ) -> Bool {
    // `beginLocked` set `reducing`: until it is false again the cell belongs to this thread.
    let observer = observing ? core.withLock { _ in reductionObserver } : nil
    let oldState = observer == nil ? nil : cell.value
    if let reduce = inPlaceReducer {
      precondition(cell.isInitialized, "Tandem: a store with an in-place reducer has no state")
      reduce(&cell.pointer.pointee, action)
    } else if let reduce = returningReducer {
      let state = cell.take()
      cell.set(reduce(action, state))
    }
    var readers: [Wakeup] = []
    var more = false
    var finished = false
    let subscriptions: [SubscriptionBox] = core.withLock { core in
      core.reducing = false
      if !core.readers.isEmpty { swap(&readers, &core.readers) }
      guard !core.subscriptions.isEmpty || observing else {
        more = Self.finishLocked(&core, next: &next, observing: &nextObserving)
        finished = true
        return []
      }
      return core.subscriptions
    }
    for reader in readers {
      reader.signal()
    }
    if finished { return more }
    if let newState = cell.value {
      observer?(action, oldState, newState, context)
      notify(subscriptions, of: newState)
    }
    return core.withLock { Self.finishLocked(&$0, next: &next, observing: &nextObserving) }
  }

  /// Replaces the state with `value` (a `State`) and notifies subscribers.
  private func replace(with value: any Sendable) {
    guard let state = value as? State else {
      preconditionFailure("Tandem: a replacement state of type \(type(of: value))")
    }
    let subscriptions = core.withLock { core in
      cell.set(state)
      return core.subscriptions
    }
    notify(subscriptions, of: state)
  }

  /// Runs a modification (a `StateModification`, already begun) on the state in the cell, then
  /// notifies subscribers if it changed the state.
  private func modify(with work: any Sendable) {
    guard let modification = work as? StateModification<State> else {
      preconditionFailure("Tandem: a state modification of type \(type(of: work))")
    }
    precondition(cell.isInitialized, "Tandem: a store without a state cannot be modified")
    let changed = modification.body(&cell.pointer.pointee)
    var readers: [Wakeup] = []
    let subscriptions = core.withLock { core in
      core.reducing = false
      if !core.readers.isEmpty { swap(&readers, &core.readers) }
      return core.subscriptions
    }
    for reader in readers {
      reader.signal()
    }
    if changed, let state = cell.value {
      notify(subscriptions, of: state)
    }
  }

  /// Adds `box` at the end of the subscriptions (replacing the same subscriber's earlier one)
  /// and sends it the current state.
  private func install(_ box: SubscriptionBox) {
    let installed = core.withLock { core in
      guard !box.isCancelled else { return false }
      for earlier in core.subscriptions where earlier.id == box.id {
        earlier.cancel()
      }
      core.subscriptions.removeAll { $0.id == box.id }
      core.subscriptions.append(box)
      return true
    }
    if installed, let state = cell.value {
      notify([box], of: state)
    }
  }

  /// Notifies `subscriptions` in order, then drops those whose subscriber was released.
  private func notify(_ subscriptions: [SubscriptionBox], of state: State) {
    subscriptionContext.round &+= 1
    var released = false
    withUnsafePointer(to: state) { pointer in
      // Every box of this store was made by `_subscribe` for a chain of its state type.
      for box in subscriptions where !box.notify(pointer) {
        released = true
      }
    }
    if released {
      core.withLock { core in core.subscriptions.removeAll { $0.isReleased } }
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
