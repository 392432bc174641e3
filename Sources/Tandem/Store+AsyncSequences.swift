extension Store {
  /// The store's states as an `AsyncSequence`: the current state, then each new state (the
  /// latest one, for a consumer slower than the dispatches). See ``StoreObservation``.
  ///
  /// ```swift
  /// for await state in store.states {
  ///   render(state)
  /// }
  /// ```
  public var states: StoreObservation<State> {
    values { $0 }
  }

  /// The values `select` computes from the store's states, as an `AsyncSequence`. See
  /// ``StoreObservation``.
  ///
  /// `select` runs on the thread that drains the store, once per new state and iterator; keep
  /// it cheap (a key path or a small computation).
  public func values<Value: Sendable>(
    _ select: @escaping @Sendable (State) -> Value
  ) -> StoreObservation<Value> {
    StoreObservation(subscribe: observe(select, skippingRepeats: nil), isRepeat: nil)
  }

  /// The values at `keyPath` in the store's states, as an `AsyncSequence`. See
  /// ``StoreObservation``.
  public func values<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreObservation<Value> {
    values { $0[keyPath: keyPath] }
  }

  /// Returns a function that subscribes a new channel to the values `select` computes, and its
  /// consumer; the store is held weakly.
  func observe<Value: Sendable>(
    _ select: @escaping @Sendable (State) -> Value,
    skippingRepeats isRepeat: (@Sendable (Value, Value) -> Bool)?
  ) -> @Sendable () -> ObservationConsumer<Value>? {
    { [weak self] in
      guard let self else { return nil }
      let channel = LatestValueChannel<Value>()
      let closer = ChannelCloser(channel)
      let subscriber = ChannelSubscriber(channel)
      let consumer = ObservationConsumer(channel: channel, subscriber: subscriber) {
        [weak self] subscriber in
        self?.unsubscribe(subscriber)
      }
      subscribe(subscriber) { (subscription: Subscription<State>) -> Subscription<Value> in
        // The chain holds the closer: when the store releases the chain, the channel ends.
        let selected = subscription.select { state in
          withExtendedLifetime(closer) { select(state) }
        }
        guard let isRepeat else { return selected }
        return selected.skipRepeats(isRepeat)
      }
      return consumer
    }
  }
}

extension Store where State: Equatable {
  /// The store's states as an `AsyncSequence`, skipping a state equal to the previous one. See
  /// ``StoreObservation``.
  public var states: StoreObservation<State> {
    values { $0 }
  }
}

extension Store {
  /// The `Equatable` values `select` computes from the store's states, as an `AsyncSequence`
  /// that skips a value equal to the previous one. See ``StoreObservation``.
  public func values<Value: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Value
  ) -> StoreObservation<Value> {
    StoreObservation(
      subscribe: observe(select, skippingRepeats: { $0 == $1 }), isRepeat: { $0 == $1 })
  }

  /// The `Equatable` values at `keyPath` in the store's states, as an `AsyncSequence` that skips
  /// a value equal to the previous one. See ``StoreObservation``.
  public func values<Value: Sendable & Equatable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreObservation<Value> {
    values { $0[keyPath: keyPath] }
  }
}
