import Tandem

/// A Tandem ``Tandem/Action`` of the GitHub browser: a `Codable` value registered under a stable
/// tag in ``browserRegistry``, which the reducer applies as the ``BrowserAction`` it stands for.
///
/// Each case of ``BrowserAction`` has one such type (``AddBookmark``, ``Navigate``,
/// ``ClaimLoad``...), so actions travel between processes as a tag and a small JSON payload:
///
/// ```swift
/// let (tag, payload) = try browserRegistry.encode(AddBookmark(owner: "ada", name: "atlas-kit"))
/// // tag == "github.bookmark.add", payload == {"name":"atlas-kit","owner":"ada"}
/// ```
public protocol BrowserActionConvertible: Action, Codable, Equatable {
  /// The reducer's input this action stands for.
  var browserAction: BrowserAction { get }
}

/// The store reducer of the GitHub browser: applies any ``BrowserActionConvertible`` through
/// ``browserReducer(_:_:)`` and ignores every other action (such as `TandemInit`).
///
/// ```swift
/// let store = Store<BrowserState>(reducer: browserStoreReducer, state: BrowserState())
/// store.dispatch(AddBookmark(owner: "ada", name: "atlas-kit"))
/// ```
public func browserStoreReducer(_ state: inout BrowserState, _ action: any Action) {
  guard let action = action as? any BrowserActionConvertible else { return }
  browserReducer(&state, action.browserAction)
}
