extension Store where State: Equatable {
  /// Subscribes `subscriber` to the whole state, skipping states equal to the previous one
  /// (unless the store was created with `automaticallySkipsRepeats: false`).
  @inlinable public func subscribe<S: StoreSubscriber>(_ subscriber: S)
  where S.StoreSubscriberStateType == State {
    let root = Subscription<State>(context: subscriptionContext)
    let transformed = automaticallySkipsRepeats ? root.skipRepeats() : nil
    _subscribe(subscriber, originalSubscription: root, transformedSubscription: transformed)
  }
}

extension Store {
  /// Subscribes `subscriber` to the `Equatable` value `transform` selects, skipping values equal
  /// to the previous one (unless the store was created with `automaticallySkipsRepeats: false`).
  @inlinable public func subscribe<SelectedState: Equatable, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState {
    let root = Subscription<State>(context: subscriptionContext)
    var transformed = transform?(root)
    if automaticallySkipsRepeats {
      transformed = transformed?.skipRepeats()
    }
    _subscribe(subscriber, originalSubscription: root, transformedSubscription: transformed)
  }

  /// Ends the chain at `subscriber` and queues the subscription; its first notification is the
  /// state current when the drainer installs it.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @inlinable func _subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, originalSubscription: Subscription<State>,
    transformedSubscription: Subscription<SelectedState>?
  ) where S.StoreSubscriberStateType == SelectedState {
    // Without a transform the chain is the root itself; its type matches unless the caller
    // passed a nil transform for another type, and then, as in ReSwift, nothing is delivered.
    let last = transformedSubscription ?? (originalSubscription as? Subscription<SelectedState>)
    let reference = WeakReference(subscriber)
    last?.makeObserver = {
      { value, deliver in
        guard deliver else { return true }
        guard let subscriber = reference.object else { return false }
        subscriber.newState(state: value.assumingMemoryBound(to: SelectedState.self).pointee)
        return true
      }
    }
    let box = SubscriptionBox(subscriber: subscriber, send: originalSubscription.compile())
    submit(.subscription(box), intercept: false)
  }
}
