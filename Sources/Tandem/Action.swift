/// Something that happened, which reducers turn into a new state.
///
/// Actions are plain values, usually structs or the cases of an enum:
///
/// ```swift
/// struct Increment: Action {}
/// enum TodoAction: Action { case add(String), remove(index: Int) }
/// ```
///
/// `Action` refines `Sendable`: a ``Store`` may be dispatched to from any thread or task, and the
/// action travels to whichever thread drains the store's queue. Structs and enums whose stored
/// values are `Sendable` conform without extra work.
public protocol Action: Sendable {}

/// The action a ``Store`` dispatches, through its middleware, when it is created without a state.
///
/// A reducer answers it by returning the initial state. ReSwift code can keep calling it
/// ``ReSwiftInit``.
public struct TandemInit: Action {
  /// Creates the init action.
  public init() {}
}

/// ReSwift's name for ``TandemInit``, so ReSwift code ports unchanged.
public typealias ReSwiftInit = TandemInit
