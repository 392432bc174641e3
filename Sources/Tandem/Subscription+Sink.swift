extension Subscription {
  /// Creates a subscription fed by `sink`, ReSwift's way of writing a custom operator: `sink` is
  /// called at once with a function that sends a value (with the previous one) down this
  /// subscription, and usually hands it to an earlier subscription's ``observer``.
  ///
  /// ```swift
  /// extension Subscription {
  ///   func squared() -> Subscription<Int> where State == Int {
  ///     Subscription<Int> { send in
  ///       self.observer = { old, new in send(old.map { $0 * $0 }, new * new) }
  ///     }
  ///   }
  /// }
  /// store.subscribe(subscriber) { $0.select(\.counter).squared() }
  /// ```
  ///
  /// The steps after this one keep their own previous values (see ``Subscription``), so the
  /// previous value given to the function is not used. A chain with such a step drops its
  /// subscriber's box when the subscriber is released at the next round that drops another one,
  /// rather than at once.
  public convenience init(
    sink: @escaping (_ send: @escaping (_ oldState: State?, _ newState: State) -> Void) -> Void
  ) {
    self.init(context: SubscriptionContext())
    let chain = SinkChain()
    sink { [self] _, newState in
      // The chain after this step is complete once the store sends the first value.
      let send = chain.send ?? makeObserver()
      chain.send = send
      _ = withUnsafePointer(to: newState) { send($0, true) }
    }
  }

  /// Makes ``observer`` the next step: it is called for each delivered value with the value
  /// this step saw for the previous state.
  func installObserver() {
    guard let observer else {
      makeObserver = { { _, _ in true } }
      return
    }
    makeObserver = {
      let previous = PreviousValue<State>()
      return { pointer, deliver in
        let value = pointer.assumingMemoryBound(to: State.self).pointee
        let old = previous.value
        previous.value = value
        if deliver {
          observer(old, value)
        }
        return true
      }
    }
  }
}

/// The compiled steps after a subscription made with ``Subscription/init(sink:)``, compiled on
/// first use. Only the draining thread touches it, one notification at a time.
private final class SinkChain {
  @exclusivity(unchecked) var send: SubscriptionObserver?
}
