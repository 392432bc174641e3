import Tandem

/// Adds a shared bookmark (once); tag `github.bookmark.add`.
public struct AddBookmark: BrowserActionConvertible, Sendable {
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String

  /// A bookmark of `owner/name` to add.
  public init(owner: String, name: String) {
    self.owner = owner
    self.name = name
  }

  /// ``BrowserAction/addBookmark(_:)``.
  public var browserAction: BrowserAction { .addBookmark(Bookmark(owner: owner, name: name)) }
}

/// Removes a shared bookmark; tag `github.bookmark.remove`.
public struct RemoveBookmark: BrowserActionConvertible, Sendable {
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String

  /// The bookmark of `owner/name` to remove.
  public init(owner: String, name: String) {
    self.owner = owner
    self.name = name
  }

  /// ``BrowserAction/removeBookmark(_:)``.
  public var browserAction: BrowserAction { .removeBookmark(Bookmark(owner: owner, name: name)) }
}

/// Moves a browser client to a route, requesting what the screen lacks; tag `github.navigate`.
/// A new session beyond ``BrowserState/maximumSessions`` ends the least recently active one.
public struct Navigate: BrowserActionConvertible, Sendable {
  /// The browser client's session id.
  public var session: String
  /// Where it goes.
  public var route: Route

  /// Session `session` goes to `route`.
  public init(session: String, route: Route) {
    self.session = session
    self.route = route
  }

  /// ``BrowserAction/navigate(session:route:)``.
  public var browserAction: BrowserAction { .navigate(session: session, route: route) }
}

/// Forgets a browser client's route (the page was closed); tag `github.session.end`.
public struct EndSession: BrowserActionConvertible, Sendable {
  /// The browser client's session id.
  public var session: String

  /// Ends `session`.
  public init(session: String) {
    self.session = session
  }

  /// ``BrowserAction/endSession(_:)``.
  public var browserAction: BrowserAction { .endSession(session) }
}

/// Asks for a load (the next page of a list, or a repository's detail again after a failure);
/// tag `github.load.request`. None is queued beyond ``BrowserState/maximumPendingLoads``, nor
/// beyond ``BrowserState/maximumPendingLoadsPerSession`` for `session`.
public struct RequestLoad: BrowserActionConvertible, Sendable {
  /// What to fetch.
  public var target: LoadTarget
  /// The browser client's session id, whose share of the queue the load counts in.
  public var session: String

  /// A request for `target` by `session`.
  public init(target: LoadTarget, session: String) {
    self.target = target
    self.session = session
  }

  /// ``BrowserAction/requestLoad(_:session:)``.
  public var browserAction: BrowserAction { .requestLoad(target, session: session) }
}
