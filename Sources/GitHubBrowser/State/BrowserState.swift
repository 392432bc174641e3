/// The GitHub browser's shared state: everything every process of the service sees.
///
/// Dictionaries are keyed by strings so the state encodes as plain JSON objects. The token a
/// worker uses never appears here; ``identity`` says only who it signs in as.
public struct BrowserState: Codable, Equatable, Sendable {
  /// Who the service talks to GitHub as.
  public var identity = Identity.unknown
  /// GitHub's rate limit as last reported by a worker.
  public var rateLimit: RateLimitStatus?
  /// Repository lists by ``RepositorySource/key``; at most ``maximumRepositoryLists``.
  public var repositoryLists: [String: CacheEntry<RepositoryList>] = [:]
  /// Repository details by `owner/name` in lower case; at most ``maximumRepositoryDetails``.
  public var repositories: [String: CacheEntry<RepositoryDetail>] = [:]
  /// The bookmarks, in the order they were added; at most ``maximumBookmarks``.
  public var bookmarks: [Bookmark] = []
  /// Each browser client's session (its route), by client session id; at most
  /// ``maximumSessions``.
  public var sessions: [String: BrowserSession] = [:]
  /// How many navigations were applied; numbers ``BrowserSession/lastNavigation`` and
  /// ``CacheEntry/lastNavigation``.
  public var navigations = 0
  /// Requested loads in the order requested, claimed or waiting for a worker.
  public var loads: [LoadRequest] = []
  /// The id the next requested load gets.
  public var nextLoadID = 1

  /// The most bookmarks the service keeps (shared by every user): the leader's validation
  /// refuses a new one beyond it, saying so.
  public static let maximumBookmarks = 500

  /// The initial state: nothing loaded, nobody signed in yet.
  public init() {}

  /// Whether `bookmark` is kept (names compare without regard to case, as GitHub's do).
  public func hasBookmark(_ bookmark: Bookmark) -> Bool {
    let key = bookmark.fullName.lowercased()
    return bookmarks.contains { $0.fullName.lowercased() == key }
  }

  /// The list for `source`, or an empty one.
  public func list(for source: RepositorySource) -> RepositoryList {
    self[list: source.key]
  }

  /// The detail of `owner/name`, or an empty one.
  public func detail(owner: String, name: String) -> RepositoryDetail {
    self[detail: LoadTarget.detailKey(owner: owner, name: name)]
  }

  /// The loads a worker may claim at `now` (ms since 1970), in the leader's order.
  public func claimableLoads(at now: Int64) -> [LoadRequest] {
    loads.filter { isClaimable($0, at: now) }
  }

  /// Whether `load` may be claimed at `now`: it is unclaimed or its claim lapsed, no rate limit
  /// holds it back, and no earlier page of the same list is still pending (a list's pages are
  /// loaded one at a time, in order, so they arrive in order).
  public func isClaimable(_ load: LoadRequest, at now: Int64) -> Bool {
    guard load.isClaimable(at: now) else { return false }
    guard case .repositories(let source, _) = load.target else { return true }
    return !loads.contains { other in
      guard other.id < load.id, case .repositories(let otherSource, _) = other.target else {
        return false
      }
      return otherSource == source
    }
  }

  /// The load numbered `id`, if it is still pending.
  public func load(_ id: Int) -> LoadRequest? {
    loads.first { $0.id == id }
  }
}

/// GitHub's rate limit for the service's identity.
public struct RateLimitStatus: Codable, Equatable, Sendable {
  /// Requests allowed per window (`x-ratelimit-limit`).
  public var limit: Int
  /// Requests left in the window (`x-ratelimit-remaining`).
  public var remaining: Int
  /// When the window resets, in seconds since 1970 (`x-ratelimit-reset`).
  public var resetAt: Int64

  /// A rate limit status.
  public init(limit: Int, remaining: Int, resetAt: Int64) {
    self.limit = limit
    self.remaining = remaining
    self.resetAt = resetAt
  }
}
