/// Everything that can happen to a ``BrowserState``; applied by ``browserReducer(_:_:)``.
///
/// Times travel in the actions (milliseconds since 1970, from the dispatching process's clock),
/// so the reducer stays pure.
public enum BrowserAction: Codable, Equatable, Sendable {
  /// A worker found out who the service's own token signs in as (or that it has none).
  case identityResolved(Identity)
  /// Session `session`, signed in as `account` (`""`: the service's own token), asks for a
  /// load; a target already pending for the account is not requested twice, and none is
  /// queued beyond ``BrowserState/maximumPendingLoads``, nor beyond
  /// ``BrowserState/maximumPendingLoadsPerSession`` requested by `session`.
  case requestLoad(LoadTarget, session: String, account: String = "")
  /// A worker claims load `id` until `expiresAt`, or renews its own claim. Granted only if the
  /// load is unclaimed, its claim lapsed by `now`, or the worker already holds it.
  case claimLoad(id: Int, workerID: String, now: Int64, expiresAt: Int64)
  /// A worker gives back a load it holds without performing it.
  case releaseLoad(id: Int, workerID: String)
  /// A worker reports a load's result; ignored unless that worker holds the claim.
  case completeLoad(id: Int, workerID: String, result: LoadResult)
  /// Adds a bookmark of `account` (once).
  case addBookmark(Bookmark, account: String = "")
  /// Removes a bookmark of `account`.
  case removeBookmark(Bookmark, account: String = "")
  /// Moves a browser client, signed in as `account`, to a route; a screen whose data `account`
  /// lacks requests its load (as ``requestLoad(_:session:account:)`` from `session`). A new session beyond
  /// ``BrowserState/maximumSessions`` ends the least recently active one, and data beyond
  /// ``BrowserState/maximumRepositoryLists`` or ``BrowserState/maximumRepositoryDetails`` drops
  /// the least recently navigated that is not in use.
  case navigate(session: String, route: Route, account: String = "")
  /// Forgets a browser client's route.
  case endSession(String)
}

/// What a worker got for a load, and the rate limit GitHub reported with it.
public struct LoadResult: Codable, Equatable, Sendable {
  /// What the load produced.
  public enum Outcome: Codable, Equatable, Sendable {
    /// A page of repositories.
    case repositories(RepositoryPage)
    /// A repository's detail (its ``RepositoryDetail/status`` is ignored).
    case repository(RepositoryDetail)
    /// The load failed.
    case failed(LoadFailure)
  }

  /// The outcome.
  public var outcome: Outcome
  /// The rate limit from the last response, if GitHub sent one.
  public var rateLimit: RateLimitStatus?

  /// A result.
  public init(_ outcome: Outcome, rateLimit: RateLimitStatus? = nil) {
    self.outcome = outcome
    self.rateLimit = rateLimit
  }
}

/// One page of a repository list, with the pagination GitHub's `Link` header gave.
public struct RepositoryPage: Codable, Equatable, Sendable {
  /// The repositories on the page.
  public var repositories: [RepositorySummary]
  /// The next page, if any (`rel="next"`).
  public var nextPage: Int?
  /// The last page, if given (`rel="last"`).
  public var lastPage: Int?

  /// A page.
  public init(repositories: [RepositorySummary], nextPage: Int? = nil, lastPage: Int? = nil) {
    self.repositories = repositories
    self.nextPage = nextPage
    self.lastPage = lastPage
  }
}
