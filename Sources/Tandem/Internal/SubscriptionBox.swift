import Synchronization

/// A subscriber held weakly, with its compiled subscription chain, its identity and whether its
/// subscription was ended.
///
/// Not generic: the chain takes the state by address (see ``SubscriptionObserver``), so the
/// store's bookkeeping and its notification loop need no generic metadata.
@usableFromInline final class SubscriptionBox: @unchecked Sendable {
  /// The subscriber's identity: subscribing the same object again replaces its box.
  let id: ObjectIdentifier
  private weak var subscriber: AnyObject?
  private let cancelled = Atomic<Bool>(false)
  /// The compiled chain. Only the draining thread calls it, one notification at a time.
  private let send: SubscriptionObserver

  @usableFromInline init(subscriber: AnyObject, send: @escaping SubscriptionObserver) {
    self.id = ObjectIdentifier(subscriber)
    self.subscriber = subscriber
    self.send = send
  }

  /// Whether the subscriber has been released.
  var isReleased: Bool { subscriber == nil }

  /// Whether the subscription was ended by `unsubscribe` or replaced.
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Ends the subscription: no notification starts after this returns.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
  }

  /// Sends the state at `state` (of the store's state type) down the chain; false when the
  /// subscriber is gone and the box can be dropped.
  func notify(_ state: UnsafeRawPointer) -> Bool {
    if isCancelled { return true }
    return send(state, true)
  }
}

/// A weak reference to a subscriber, for the last step of its chain.
@usableFromInline final class WeakReference<Object: AnyObject> {
  @usableFromInline weak let object: Object?

  @usableFromInline init(_ object: Object) {
    self.object = object
  }
}
