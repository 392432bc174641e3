/// An `AsyncSequence` of a store's states, or of a value selected from them: what
/// ``Store/states-ros0`` and ``Store/values(_:)-1zvy9`` return (with their `Equatable` forms).
///
/// ```swift
/// for await counter in store.values(\.counter) {
///   label.text = "\(counter)"
/// }
/// ```
///
/// Each iterator subscribes to the store when it is created and first yields the value for the
/// current state, then the value for each new state. When the values are `Equatable`, a value
/// equal to the one yielded before is skipped.
///
/// **Buffering.** Between two calls of `next()` an iterator keeps one value: the latest. A
/// consumer slower than the dispatches skips intermediate values and always catches up with the
/// newest one; it never builds up a queue. Use a ``StoreSubscriber`` to see every state.
///
/// **Ending.** The sequence ends (`next()` returns `nil`) when the store is deallocated, and when
/// the consuming task is cancelled. Leaving the loop (`break`, `return`, a thrown error) releases
/// the iterator, which unsubscribes from the store. The sequence holds the store weakly: it does
/// not keep the store alive.
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
  /// The type of the values.
  public typealias Element = Value
  /// Iterating never throws.
  public typealias Failure = Never

  /// Subscribes a new consumer to the store; `nil` when the store is gone.
  let subscribe: @Sendable () -> ObservationConsumer<Value>?
  /// Tells whether a value repeats the previous one (for `Equatable` values).
  let isRepeat: (@Sendable (Value, Value) -> Bool)?

  /// Subscribes to the store and returns an iterator over its values.
  public func makeAsyncIterator() -> Iterator {
    Iterator(consumer: subscribe(), isRepeat: isRepeat)
  }

  /// Iterates over a store's values; see ``StoreObservation``.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    /// The subscription; `nil` once ended.
    private var consumer: ObservationConsumer<Value>?
    private let isRepeat: (@Sendable (Value, Value) -> Bool)?
    /// The value yielded last, to skip repeats.
    private var last: Value?

    init(consumer: ObservationConsumer<Value>?, isRepeat: (@Sendable (Value, Value) -> Bool)?) {
      self.consumer = consumer
      self.isRepeat = isRepeat
    }

    /// The next value: for the current state first, then for each new state (the latest one when
    /// several arrived since the last call); `nil` once the store is gone or the task cancelled.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      while let consumer {
        guard let value = await consumer.channel.receive(isolation: actor) else {
          self.consumer = nil
          return nil
        }
        if let last, let isRepeat, isRepeat(last, value) {
          continue
        }
        last = value
        return value
      }
      return nil
    }

    /// The next value; see ``next(isolation:)``.
    public mutating func next() async -> Value? {
      await next(isolation: nil)
    }
  }
}

/// One iterator's subscription: unsubscribes from the store when the iterator is released.
final class ObservationConsumer<Value: Sendable>: Sendable {
  let channel: LatestValueChannel<Value>
  /// The store holds its subscribers weakly; this keeps it alive as long as the iterator.
  private let subscriber: ChannelSubscriber<Value>
  private let unsubscribe: @Sendable (ChannelSubscriber<Value>) -> Void

  init(
    channel: LatestValueChannel<Value>, subscriber: ChannelSubscriber<Value>,
    unsubscribe: @escaping @Sendable (ChannelSubscriber<Value>) -> Void
  ) {
    self.channel = channel
    self.subscriber = subscriber
    self.unsubscribe = unsubscribe
  }

  deinit {
    unsubscribe(subscriber)
  }
}
