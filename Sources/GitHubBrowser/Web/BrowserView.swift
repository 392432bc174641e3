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

  /// The replica's connection.
  public var connection: Connection
  /// Who the service talks to GitHub as.
  public var identity: Identity
  /// GitHub's last reported rate limit.
  public var rateLimit: RateLimitStatus?
  /// This client's route, `nil` before its first navigation.
  public var route: Route?
  /// The shared bookmarks.
  public var bookmarks: [Bookmark]
  /// The list the route shows, on a repositories screen.
  public var list: RepositoryList?
  /// The detail the route shows, on a repository screen.
  public var detail: RepositoryDetail?
  /// The detail's README as HTML (see ``MarkdownHTML``): formatted, with nothing that can run.
  public var readmeHTML: String?
  /// How many loads wait for or are with a worker.
  public var pendingLoads: Int
  /// How many browser clients have a route.
  public var sessions: Int

  /// The view of `session` in `state`.
  public init(state: BrowserState, session: String, connection: Connection) {
    self.connection = connection
    identity = state.identity
    rateLimit = state.rateLimit
    route = state.sessions[session]?.route
    bookmarks = state.bookmarks
    pendingLoads = state.loads.count
    sessions = state.sessions.count
    switch route?.screen {
    case .repositories(let source): list = state.list(for: source)
    case .repository(let owner, let name):
      let detail = state.detail(owner: owner, name: name)
      self.detail = detail
      readmeHTML = detail.readme.map(MarkdownHTML.cachedRender)
    case .bookmarks, nil: break
    }
  }
}
