import Synchronization

/// A subscriber held weakly, with its identity and whether its subscription was ended.
///
/// The store's bookkeeping holds these untyped; each is a ``SubscriptionBox`` of the store's
/// state type.
@usableFromInline class AnySubscriptionBox: @unchecked Sendable {
  /// The subscriber's identity: subscribing the same object again replaces its box.
  let id: ObjectIdentifier
  private weak var subscriber: AnyObject?
  private let cancelled = Atomic<Bool>(false)

  init(subscriber: AnyObject) {
    self.id = ObjectIdentifier(subscriber)
    self.subscriber = subscriber
  }

  /// Whether the subscriber has been released.
  final var isReleased: Bool { subscriber == nil }

  /// Whether the subscription was ended by `unsubscribe` or replaced.
  final var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Ends the subscription: no notification starts after this returns.
  final func cancel() {
    cancelled.store(true, ordering: .releasing)
  }
}

/// A subscription box with its compiled subscription chain, whose last step calls the
/// subscriber.
@usableFromInline final class SubscriptionBox<State>: AnySubscriptionBox, @unchecked Sendable {
  /// The compiled chain. Only the draining thread calls it, one notification at a time.
  private let send: Subscription<State>.Observer

  @usableFromInline init(subscriber: AnyObject, root: Subscription<State>) {
    self.send = root.compile()
    super.init(subscriber: subscriber)
  }

  /// Sends `state` down the chain; false when the subscriber is gone and the box can be dropped.
  func notify(_ state: State) -> Bool {
    if isCancelled { return true }
    return self.send(state, true)
  }
}

/// A weak reference to a subscriber, for the last step of its chain.
@usableFromInline final class WeakReference<Object: AnyObject> {
  @usableFromInline weak let object: Object?

  @usableFromInline init(_ object: Object) {
    self.object = object
  }
}
