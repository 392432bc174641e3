import Tandem

/// Adds a shared bookmark (once); tag `github.bookmark.add`.
public struct AddBookmark: BrowserActionConvertible, Sendable {
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String
  /// Whose bookmark it is: a GitHub login in lower case, or `""` for the service's own token.
  /// A web front end sets it from the browser's sign-in, whatever the page sent.
  @AccountField public var account: String

  /// A bookmark of `owner/name` for `account` to add.
  public init(owner: String, name: String, account: String = "") {
    self.owner = owner
    self.name = name
    self.account = account
  }

  /// ``BrowserAction/addBookmark(_:account:)``.
  public var browserAction: BrowserAction {
    .addBookmark(Bookmark(owner: owner, name: name), account: account)
  }
}

/// Removes a shared bookmark; tag `github.bookmark.remove`.
public struct RemoveBookmark: BrowserActionConvertible, Sendable {
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String
  /// Whose bookmark it is: a GitHub login in lower case, or `""` for the service's own token.
  /// A web front end sets it from the browser's sign-in, whatever the page sent.
  @AccountField public var account: String

  /// A bookmark of `owner/name` for `account` to remove.
  public init(owner: String, name: String, account: String = "") {
    self.owner = owner
    self.name = name
    self.account = account
  }

  /// ``BrowserAction/removeBookmark(_:account:)``.
  public var browserAction: BrowserAction {
    .removeBookmark(Bookmark(owner: owner, name: name), account: account)
  }
}

/// Moves a browser client to a route, requesting what the screen lacks; tag `github.navigate`.
/// A new session beyond ``BrowserState/maximumSessions`` ends the least recently active one.
public struct Navigate: BrowserActionConvertible, Sendable {
  /// The browser client's session id.
  public var session: String
  /// Where it goes.
  public var route: Route
  /// Who the client is signed in as: a GitHub login in lower case, or `""` for the service's
  /// own token. A web front end sets it from the browser's sign-in, whatever the page sent.
  @AccountField public var account: String

  /// Session `session`, signed in as `account`, goes to `route`.
  public init(session: String, route: Route, account: String = "") {
    self.session = session
    self.route = route
    self.account = account
  }

  /// ``BrowserAction/navigate(session:route:account:)``.
  public var browserAction: BrowserAction {
    .navigate(session: session, route: route, account: account)
  }
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
  /// Whose token performs the load: a GitHub login in lower case, or `""` for the service's
  /// own token. A web front end sets it from the browser's sign-in, whatever the page sent.
  @AccountField public var account: String

  /// A request for `target` by `session`, signed in as `account`.
  public init(target: LoadTarget, session: String, account: String = "") {
    self.target = target
    self.session = session
    self.account = account
  }

  /// ``BrowserAction/requestLoad(_:session:account:)``.
  public var browserAction: BrowserAction {
    .requestLoad(target, session: session, account: account)
  }
}
