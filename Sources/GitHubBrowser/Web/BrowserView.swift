/// What one browser client's page shows: the shared parts of the state, its own route and the
/// data its screen needs, and whether the front end's replica is connected to the leader.
///
/// The web front end computes it from its replica for every event-stream client and sends it
/// (as JSON) only when it changed.
public struct BrowserView: Codable, Equatable, Sendable {
  /// The replica's link to the leader, as the page's badge shows it: what the follower's
  /// `connectionChanges()` reports, as it reports it.
  public enum Connection: String, Codable, Sendable {
    /// Joined and in step with the leader.
    case live
    /// The follower lost the leader (the leader said it was stopping, was silent past the
    /// follower's silence limit, or refused a request) and is joining again; the page shows
    /// "reconnecting" and keeps the last state.
    case reconnecting
    /// The follower has stopped and will not join again: its owner stopped it, or it stopped
    /// itself because the leader refused it for good (another process took over its client
    /// id, or the leader runs another schema). The page shows "disconnected" and keeps the
    /// last state until the front end is restarted.
    case disconnected
  }

  /// Who a browser is, as the front end knows it from the browser's sign-in cookie.
  public enum Viewer: Equatable, Sendable {
    /// No sign-in is configured: the service's own token (account `""`) serves everyone.
    case service
    /// Signed in with GitHub as `login` (account `login` in lower case).
    case user(login: String, name: String?)
    /// Sign-in is configured and this browser has not signed in: it sees nothing but the
    /// sign-in screen.
    case signedOut

    /// The account whose data the viewer sees.
    public var account: String {
      if case .user(let login, _) = self { return login.lowercased() }
      return ""
    }
  }

  /// The replica's connection.
  public var connection: Connection
  /// Who the page talks to GitHub as: the signed-in user, or the service's own token.
  public var identity: Identity
  /// Whether the page must show the sign-in screen (sign-in is configured and this browser
  /// has not signed in).
  public var signInRequired: Bool
  /// Whether the page offers to sign out (the browser is signed in).
  public var canSignOut: Bool
  /// GitHub's last reported rate limit for the viewer's account.
  public var rateLimit: RateLimitStatus?
  /// This client's route, `nil` before its first navigation.
  public var route: Route?
  /// The viewer's bookmarks.
  public var bookmarks: [Bookmark]
  /// The list the route shows, on a repositories screen.
  public var list: RepositoryList?
  /// The detail the route shows, on a repository screen.
  public var detail: RepositoryDetail?
  /// The detail's README as HTML (see ``MarkdownHTML``): formatted, with nothing that can run.
  public var readmeHTML: String?
  /// How many of the viewer's account's loads wait for or are with a worker.
  public var pendingLoads: Int
  /// How many browser clients have a route.
  public var sessions: Int

  /// The view of `session` in `state`, as `viewer` may see it: the viewer's account's data
  /// only.
  public init(
    state: BrowserState, session: String, connection: Connection, viewer: Viewer = .service
  ) {
    self.connection = connection
    let account = viewer.account
    switch viewer {
    case .service: identity = state.identity
    case .user(let login, let name): identity = .signedIn(login: login, name: name)
    case .signedOut: identity = .anonymous
    }
    signInRequired = viewer == .signedOut
    if case .user = viewer { canSignOut = true } else { canSignOut = false }
    rateLimit = state.rateLimits[account]
    sessions = state.sessions.count
    pendingLoads = state.loads.count { $0.account == account }
    guard viewer != .signedOut else {
      bookmarks = []
      return
    }
    route = state.sessions[session]?.route
    bookmarks = state.bookmarks(of: account)
    switch route?.screen {
    case .repositories(let source): list = state.list(for: source, account: account)
    case .repository(let owner, let name):
      let detail = state.detail(owner: owner, name: name, account: account)
      self.detail = detail
      readmeHTML = detail.readme.map(MarkdownHTML.cachedRender)
    case .bookmarks, nil: break
    }
  }
}
