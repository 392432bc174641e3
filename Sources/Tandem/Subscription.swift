/// A chain of steps that selects and filters what a subscriber receives from a store.
///
/// A subscription is built in the `transform` closure of `subscribe(_:transform:)`:
///
/// ```swift
/// store.subscribe(subscriber) { subscription in
///   subscription
///     .select { $0.todos }
///     .skipRepeats { $0.count == $1.count }
/// }
/// ```
///
/// Each step compares a state's value with the value the same step computed for the previous
/// state, as ReSwift does. Tandem gets the previous value from the step itself instead of keeping
/// the previous whole state, so the store's state stays uniquely referenced and in-place reducers
/// do not copy it. Steps that keep values are ``skipRepeats(_:)`` and the filters built on it;
/// they keep the last value they were given, and every step sees every state, even when an
/// earlier step filtered it out, so that comparison is always with the previous state (unlike
/// ReSwift, a selector may therefore run for a state an earlier step skipped).
///
/// Selector and filter closures run on the thread that drains the store, one notification at a
/// time, so they need not be `Sendable`; they should be pure and fast.
///
/// The steps are `@inlinable`, so the closures of a chain are specialized for the concrete
/// types where the subscription is made (an unspecialized `==` on an array compares element by
/// element through witness tables, many times slower).
public final class Subscription<State> {
  /// Makes the function that runs the steps after this one, once the chain is complete; set
  /// when a step is added after this one. Each call makes fresh step state.
  /// Not optional: a closure in an optional is kept maximally abstract, and calling what it
  /// returns would go through reabstraction thunks.
  @usableFromInline var makeObserver: () -> SubscriptionObserver = { { _, _ in true } }

  /// The store's notification context, shared by the steps of its subscriptions.
  @usableFromInline let context: SubscriptionContext

  /// ReSwift's hook for custom operators: called with the previous and the new value of this
  /// step for each value that reaches it (the previous one is `nil` the first time). Setting it
  /// makes it the step after this one; see ``init(sink:)``.
  public var observer: ((_ oldState: State?, _ newState: State) -> Void)? {
    didSet { installObserver() }
  }

  @usableFromInline init(context: SubscriptionContext) {
    self.context = context
  }

  /// The function that runs the steps after this one. The store compiles a chain once, when it
  /// subscribes, so each notification calls a fixed closure per step instead of looking steps
  /// up.
  @inlinable func compile() -> SubscriptionObserver {
    makeObserver()
  }

  /// A subscription to the value `selector` computes from each state.
  @inlinable public func select<Substate>(
    _ selector: @escaping (State) -> Substate
  ) -> Subscription<Substate> {
    let next = Subscription<Substate>(context: context)
    makeObserver = {
      let send = next.compile()
      return { value, deliver in
        let selected = selector(value.assumingMemoryBound(to: State.self).pointee)
        return withUnsafePointer(to: selected) { send($0, deliver) }
      }
    }
    return next
  }

  /// A subscription to the value at `keyPath` in each state.
  @inlinable public func select<Substate>(
    _ keyPath: KeyPath<State, Substate>
  ) -> Subscription<Substate> {
    select { $0[keyPath: keyPath] }
  }

  /// A subscription that skips a value when `isRepeat(previous, new)` is true.
  ///
  /// The first value (the one sent when subscribing) always passes.
  @inlinable public func skipRepeats(
    _ isRepeat: @escaping (_ oldState: State, _ newState: State) -> Bool
  ) -> Subscription<State> {
    let next = Subscription<State>(context: context)
    makeObserver = {
      let send = next.compile()
      let previous = PreviousValue<State>()
      return { pointer, deliver in
        let value = pointer.assumingMemoryBound(to: State.self)
        var pass = deliver
        if pass, let old = previous.value, isRepeat(old, value.pointee) {
          pass = false
        }
        previous.value = value.pointee
        return send(pointer, pass)
      }
    }
    return next
  }

  /// A subscription that skips a value when `when(previous, new)` is true; same as
  /// ``skipRepeats(_:)``.
  @inlinable public func skip(
    when: @escaping (_ oldState: State, _ newState: State) -> Bool
  ) -> Subscription<State> {
    skipRepeats(when)
  }

  /// A subscription that passes a value only when `when(previous, new)` is true.
  @inlinable public func only(
    when: @escaping (_ oldState: State, _ newState: State) -> Bool
  ) -> Subscription<State> {
    skipRepeats { !when($0, $1) }
  }
}

extension Subscription where State: Equatable {
  /// A subscription that skips a value equal to the previous one.
  ///
  /// For values with references (arrays, strings, dictionaries...), the comparison of one pair
  /// of values is shared by all the store's subscriptions that compare the bitwise-same pair in
  /// the same notification round, such as several subscribers selecting the same array: one of
  /// them compares the elements, the others reuse the answer.
  @inlinable public func skipRepeats() -> Subscription<State> {
    guard !_isPOD(State.self) else { return skipRepeats(==) }
    let memo = context.memo(for: State.self)
    let context = self.context
    return skipRepeats { old, new in memo.isEqual(old, new, round: context.round) }
  }
}

/// A compiled subscription chain: takes the address of each value (of the type of the step the
/// chain starts at) with whether it is to be delivered, and returns false once the subscriber is
/// gone.
///
/// Values pass by address so that the closure type is not generic: closures made where the
/// types are concrete are called without reabstraction thunks, and the store calls chains from
/// non-generic bookkeeping.
@usableFromInline typealias SubscriptionObserver = (_ value: UnsafeRawPointer, _ deliver: Bool) ->
  Bool

/// The value a ``Subscription/skipRepeats(_:)`` step saw for the previous state.
///
/// Only the draining thread touches it, one notification at a time, hence no exclusivity checks.
@usableFromInline final class PreviousValue<Value> {
  @exclusivity(unchecked) @usableFromInline var value: Value?

  @usableFromInline init() {}
}
