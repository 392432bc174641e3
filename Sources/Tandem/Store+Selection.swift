extension Store {
  /// A read-only value derived from the state by `select`, read synchronously or observed (see
  /// ``StoreSelection``), such as the selection a ``StoreModel`` follows.
  public func selection<Value: Sendable>(
    _ select: @escaping @Sendable (State) -> Value
  ) -> StoreSelection<Value> {
    StoreSelection(source: RootedSelectionSource(store: self, select: select), isRepeat: nil)
  }

  /// A read-only `Equatable` value derived from the state by `select`, whose observation skips
  /// a value equal to the previous one.
  public func selection<Value: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Value
  ) -> StoreSelection<Value> {
    StoreSelection(
      source: RootedSelectionSource(store: self, select: select), isRepeat: { $0 == $1 })
  }

  /// The value at `keyPath` in the state, as a ``StoreSelection``.
  public func selection<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreSelection<Value> {
    selection { $0[keyPath: keyPath] }
  }

  /// The `Equatable` value at `keyPath` in the state, as a ``StoreSelection`` that skips
  /// repeats when observed.
  public func selection<Value: Sendable & Equatable>(
    _ keyPath: KeyPath<State, Value> & Sendable
  ) -> StoreSelection<Value> {
    selection { $0[keyPath: keyPath] }
  }
}
