/// A unit of work the draining thread performs, in the order it was submitted.
///
/// Not generic, like ``StoreCore``: the store's hot path runs unspecialized in client code, and
/// generic bookkeeping types would cost a runtime metadata lookup at every use.
@usableFromInline enum StoreWork: Sendable {
  /// Reduce an action (it has been through the middleware already), with the context it was
  /// dispatched in (``Store/dispatch(_:context:)``), if any.
  case action(any Action, context: (any Sendable)?)
  /// Replace the whole state (``Store/replaceState(_:)``); holds a `State`.
  case replacement(any Sendable)
  /// Change the state where it lies (``Store/modifyState(_:)``); holds a `StateModification`.
  case modification(any Sendable)
  /// Install a subscription and send it the current state.
  case subscription(SubscriptionBox)
}

/// Work waiting for the draining thread, and the thread waiting for it, if any.
struct PendingWork: Sendable {
  var work: StoreWork
  /// Signalled once the work has been applied and its notification round is over.
  var done: Wakeup?
}

/// The bookkeeping a ``Store`` guards with its mutex (the state itself is a field of the store,
/// guarded by the same mutex; see `Store.cell`).
struct StoreCore: Sendable {
  /// The thread draining the queue, if any.
  var drainer: ThreadIdentity?
  /// Whether the drainer is running a reducer: the state belongs to it until this is false.
  var reducing = false
  /// Work submitted while a drain was in progress.
  var queue = WorkQueue()
  /// Subscriptions in the order they subscribed.
  var subscriptions = SubscriptionList()
  /// The middleware chain ending in `_defaultDispatch`; `nil` when there is no middleware.
  var dispatchFunction: DispatchFunction?
  /// Threads waiting to read the state while a reducer runs.
  var readers: [Wakeup] = []
  /// Sees each action after the middleware (``Store/setDispatchInterceptor(_:)``).
  var dispatchInterceptor: DispatchInterceptor?
  /// The contexts of dispatches in progress, by dispatching thread
  /// (``Store/dispatch(_:context:)``).
  var dispatchContexts: [ThreadIdentity: any Sendable] = [:]
  /// Whether the store has a reduction observer (``Store/setReductionObserver(_:)``); kept here
  /// so the hot path tests a flag instead of the generic optional closure.
  var hasReductionObserver = false
}

/// A first-in first-out queue of pending work.
struct WorkQueue: Sendable {
  private var items: [PendingWork] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }

  mutating func append(_ item: PendingWork) {
    items.append(item)
  }

  /// Removes and returns the oldest item; `nil` when the queue is empty.
  mutating func popFirst() -> PendingWork? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    }
    return item
  }

  /// Calls `body` with each pending item, oldest first.
  func forEach(_ body: (PendingWork) -> Void) {
    for index in head..<items.count {
      body(items[index])
    }
  }
}
