/// Something actions can be dispatched to.
public protocol DispatchingStoreType {
  /// Dispatches `action`: it goes through the middleware, then the reducer.
  func dispatch(_ action: any Action)
}

/// ReSwift's store interface, which ``Store`` implements.
public protocol StoreType: DispatchingStoreType {
  /// The type of the whole state.
  associatedtype State

  /// ReSwift's deprecated synchronous action creator.
  associatedtype ActionCreator

  /// ReSwift's deprecated asynchronous action creator.
  associatedtype AsyncActionCreator

  /// Called with the state after an asynchronous action creator's action was dispatched.
  associatedtype DispatchCallback

  /// The current state; `nil` only while a store created without a state has not run its init
  /// action.
  var state: State! { get }

  /// The function `dispatch(_:)` calls: the middleware chain ending in the reducer.
  var dispatchFunction: DispatchFunction! { get }

  /// Subscribes to the whole state.
  func subscribe<S: StoreSubscriber>(_ subscriber: S) where S.StoreSubscriberStateType == State

  /// Subscribes to the part of the state that `transform` selects.
  func subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState

  /// Subscribes to the `Equatable` part of the state that `transform` selects, skipping
  /// repeated values (unless the store turned that off).
  ///
  /// A requirement of its own, as in ReSwift, so that code generic over `StoreType` gets the
  /// automatic skip of repeats too: overload resolution picks it for `Equatable` selections.
  func subscribe<SelectedState: Equatable, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState

  /// Ends the subscription of `subscriber`.
  func unsubscribe(_ subscriber: AnyStoreSubscriber)

  /// Dispatches the action an action creator returns, if any.
  func dispatch(_ actionCreator: ActionCreator)

  /// Dispatches the action an asynchronous action creator provides later.
  func dispatch(_ asyncActionCreator: AsyncActionCreator)

  /// Dispatches the action an asynchronous action creator provides later, then calls `callback`.
  func dispatch(_ asyncActionCreator: AsyncActionCreator, callback: DispatchCallback?)
}
