/// A subscriber of any state type; the untyped half of ``StoreSubscriber``.
///
/// Stores hold their subscribers weakly, so this protocol is class-only.
public protocol AnyStoreSubscriber: AnyObject {
  /// Receives a state of any type; forwards it to ``StoreSubscriber/newState(state:)`` when its
  /// type matches.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  func _newState(state: Any)
}

/// An object that receives the states of a ``Store``, or the part of them its subscription
/// selects.
///
/// ```swift
/// final class CounterView: StoreSubscriber {
///   func newState(state: Int) { label = "\(state)" }
/// }
/// store.subscribe(counterView) { $0.select(\.counter) }
/// ```
///
/// `newState(state:)` is called once when the subscriber subscribes (when the store has a state)
/// and then after every dispatch whose selected value passes the subscription's filters, in the
/// order subscribers subscribed, on the thread that drains the store (see <doc:ThreadingModel>).
/// Tandem never calls two notifications of one store at once, so a subscriber needs no lock of
/// its own unless other code touches it from other threads.
public protocol StoreSubscriber: AnyStoreSubscriber {
  /// The type of value this subscriber receives.
  associatedtype StoreSubscriberStateType

  /// Receives a new state (or selected value).
  func newState(state: StoreSubscriberStateType)
}

extension StoreSubscriber {
  /// Forwards `state` to ``newState(state:)`` when it has this subscriber's state type.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func _newState(state: Any) {
    if let typedState = state as? StoreSubscriberStateType {
      newState(state: typedState)
    }
  }
}
