/// Where a ``StoreSelection`` gets its value: a store and a function of its state, with the
/// store's state type hidden (a subclass knows it).
class SelectionSource<Value: Sendable>: @unchecked Sendable {
  /// The value for the current state.
  var value: Value {
    preconditionFailure("Tandem: SelectionSource is abstract")
  }

  /// The values for the store's states, as an `AsyncSequence`.
  func observation(isRepeat: (@Sendable (Value, Value) -> Bool)?) -> StoreObservation<Value> {
    preconditionFailure("Tandem: SelectionSource is abstract")
  }

  /// A source of `transform` of this source's value.
  func map<Derived: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Derived
  ) -> SelectionSource<Derived> {
    preconditionFailure("Tandem: SelectionSource is abstract")
  }
}

/// A ``SelectionSource`` over a store of `State`.
final class RootedSelectionSource<State: Sendable, Value: Sendable>: SelectionSource<Value>,
  @unchecked Sendable
{
  let store: Store<State>
  let select: @Sendable (State) -> Value

  init(store: Store<State>, select: @escaping @Sendable (State) -> Value) {
    self.store = store
    self.select = select
  }

  override var value: Value {
    select(store.state)
  }

  override func observation(
    isRepeat: (@Sendable (Value, Value) -> Bool)?
  ) -> StoreObservation<Value> {
    StoreObservation(
      subscribe: store.observe(select, skippingRepeats: isRepeat), isRepeat: isRepeat)
  }

  override func map<Derived: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Derived
  ) -> SelectionSource<Derived> {
    let select = self.select
    return RootedSelectionSource<State, Derived>(store: store, select: { transform(select($0)) })
  }
}
