/// An action that cancels running `async` thunks: those with an ``id``, or all of them.
///
/// The thunk middleware handles it and does not pass it on to the reducer.
///
/// ```swift
/// store.dispatch(CancelThunks(id: "search"))
/// store.dispatch(CancelThunks.all)
/// ```
public struct CancelThunks: Action, Equatable {
  /// The identity of the thunks to cancel; `nil` cancels every running thunk.
  public let id: ThunkID?

  /// Cancels the running thunks whose identity is `id`.
  public init(id: ThunkID) {
    self.id = id
  }

  private init(all: Void) {
    self.id = nil
  }

  /// Cancels every running thunk of the middleware that sees it.
  public static let all = CancelThunks(all: ())
}
