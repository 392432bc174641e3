/// The GitHub browser's shared state: everything every process of the service sees.
///
/// Dictionaries are keyed by strings so the state encodes as plain JSON objects. No token ever
/// appears here: ``identity`` says only who the service's own token signs in as, and an
/// account (see ``accounts``) is a GitHub login.
///
/// Data loaded from GitHub belongs to the account whose token loaded it: the service's own
/// token (account `""`, one-user setups) or a user who signed in through the front end (the
/// user's login in lower case). Each account has its own lists, details, bookmarks and rate
/// limit, because what GitHub shows (private repositories above all) depends on who asks; a
/// session sees only its own account's.
public struct BrowserState: Codable, Equatable, Sendable {
  /// Who the service's own token (account `""`) talks to GitHub as.
  public var identity = Identity.unknown
  /// GitHub's rate limit for each account, as last reported by a worker.
  public var rateLimits: [String: RateLimitStatus] = [:]
  /// Repository lists by account and ``RepositorySource/key`` (see
  /// ``cacheKey(_:account:)``); at most ``maximumRepositoryLists``.
  public var repositoryLists: [String: CacheEntry<RepositoryList>] = [:]
  /// Repository details by account and `owner/name` in lower case (see
  /// ``cacheKey(_:account:)``); at most ``maximumRepositoryDetails``.
  public var repositories: [String: CacheEntry<RepositoryDetail>] = [:]
  /// Each account's bookmarks, in the order they were added; at most ``maximumBookmarks`` an
  /// account.
  public var bookmarks: [String: [Bookmark]] = [:]
  /// Each browser client's session (its route and account), by client session id; at most
  /// ``maximumSessions``.
  public var sessions: [String: BrowserSession] = [:]
  /// How many navigations were applied; numbers ``BrowserSession/lastNavigation`` and
  /// ``CacheEntry/lastNavigation``.
  public var navigations = 0
  /// Requested loads in the order requested, claimed or waiting for a worker.
  public var loads: [LoadRequest] = []
  /// The id the next requested load gets.
  public var nextLoadID = 1

  /// GitHub's last reported rate limit for the service's own token (account `""`).
  public var rateLimit: RateLimitStatus? {
    get { rateLimits[""] }
    set { rateLimits[""] = newValue }
  }

  /// The accounts the state holds data, bookmarks or sessions of.
  public var accounts: Set<String> {
    var accounts = Set(bookmarks.keys)
    accounts.formUnion(sessions.values.map(\.account))
    accounts.formUnion(loads.map(\.account))
    return accounts
  }

  /// The most bookmarks an account keeps: the leader's validation refuses a new one beyond it,
  /// saying so.
  public static let maximumBookmarks = 500

  /// The initial state: nothing loaded, nobody signed in yet.
  public init() {}

  /// `account`'s bookmarks, in the order they were added.
  public func bookmarks(of account: String) -> [Bookmark] {
    bookmarks[account] ?? []
  }

  /// Whether `account` keeps `bookmark` (names compare without regard to case, as GitHub's do).
  public func hasBookmark(_ bookmark: Bookmark, account: String = "") -> Bool {
    let key = bookmark.fullName.lowercased()
    return bookmarks(of: account).contains { $0.fullName.lowercased() == key }
  }

  /// `account`'s list for `source`, or an empty one.
  public func list(for source: RepositorySource, account: String = "") -> RepositoryList {
    self[list: Self.cacheKey(source.key, account: account)]
  }

  /// `account`'s detail of `owner/name`, or an empty one.
  public func detail(owner: String, name: String, account: String = "") -> RepositoryDetail {
    self[detail: Self.cacheKey(LoadTarget.detailKey(owner: owner, name: name), account: account)]
  }

  /// The key under which ``repositoryLists`` or ``repositories`` keep `account`'s data of
  /// `key` (a ``RepositorySource/key`` or `owner/name`): `key` itself for the service's own
  /// token, `account:key` for a signed-in user (a login holds no `:`).
  public static func cacheKey(_ key: String, account: String) -> String {
    account.isEmpty ? key : account + ":" + key
  }

  /// Whether GitHub's rate limit for `account` has no requests left at `now` (ms since 1970):
  /// its loads wait until the reset, and no other account's do.
  public func isRateLimited(_ account: String, at now: Int64) -> Bool {
    guard let limit = rateLimits[account] else { return false }
    return limit.remaining == 0 && limit.resetAt.secondsInMilliseconds > now
  }

  /// The loads a worker may claim at `now` (ms since 1970), in the leader's order.
  public func claimableLoads(at now: Int64) -> [LoadRequest] {
    loads.filter { isClaimable($0, at: now) }
  }

  /// Whether `load` may be claimed at `now`: it is unclaimed or its claim lapsed, no rate limit
  /// of its own or of its account holds it back, and no earlier page of the same list is
  /// still pending (a list's pages are loaded one at a time, in order, so they arrive in
  /// order). Another account's rate limit never holds a load back.
  public func isClaimable(_ load: LoadRequest, at now: Int64) -> Bool {
    guard load.isClaimable(at: now), !isRateLimited(load.account, at: now) else { return false }
    guard case .repositories(let source, _) = load.target else { return true }
    return !loads.contains { other in
      guard other.id < load.id, other.account == load.account,
        case .repositories(let otherSource, _) = other.target
      else { return false }
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
