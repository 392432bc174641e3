/// A read-only value derived from a store's state: what `EventStore.map(_:)` and
/// `Store.selection(_:)` return, the role of Redux-ReactiveSwift's `Property`.
///
/// ```swift
/// let text = store.map { "\($0)" }
/// text.value                       // read now, from any thread
/// for await text in text { ... }   // the current value, then each change
/// let length = text.map(\.count)   // derived again
/// ```
///
/// Reading ``value`` computes it from the current state. Iterating subscribes to the store, as
/// ``StoreObservation`` does (one buffered value, the latest); when the value is `Equatable`, a
/// value equal to the previous one is skipped, so a consumer hears only of changes. A selection
/// keeps its store alive; an iteration does not.
public struct StoreSelection<Value: Sendable>: AsyncSequence, Sendable {
  /// The type of the values.
  public typealias Element = Value
  /// Iterating never throws.
  public typealias Failure = Never

  /// Where the value comes from.
  let source: SelectionSource<Value>
  /// Tells whether a value repeats the previous one (for `Equatable` values).
  let isRepeat: (@Sendable (Value, Value) -> Bool)?

  /// The value for the current state.
  public var value: Value {
    source.value
  }

  /// The values as a ``StoreObservation``.
  public var values: StoreObservation<Value> {
    source.observation(isRepeat: isRepeat)
  }

  /// Subscribes to the store and returns an iterator over the values.
  public func makeAsyncIterator() -> StoreObservation<Value>.Iterator {
    values.makeAsyncIterator()
  }

  /// A value derived from this one by `transform`.
  public func map<Derived: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Derived
  ) -> StoreSelection<Derived> {
    StoreSelection<Derived>(source: source.map(transform), isRepeat: nil)
  }

  /// An `Equatable` value derived from this one by `transform`, skipping repeats when observed.
  public func map<Derived: Sendable & Equatable>(
    _ transform: @escaping @Sendable (Value) -> Derived
  ) -> StoreSelection<Derived> {
    StoreSelection<Derived>(source: source.map(transform), isRepeat: { $0 == $1 })
  }
}
