extension BrowserState {
  /// The most lists ``repositoryLists`` keeps (1,100). Beyond it, after any action, the state
  /// drops the least recently navigated list (the lowest ``CacheEntry/lastNavigation``) that no
  /// session shows and no pending load targets; a later navigation to it loads it again. The
  /// bound is as many lists as the sessions (``maximumSessions``) and the pending loads
  /// (``maximumPendingLoads``) can use at once, so the state never has to drop one in use.
  public static let maximumRepositoryLists = maximumSessions + maximumPendingLoads

  /// The most repository details ``repositories`` keeps (1,100), bounded as
  /// ``maximumRepositoryLists`` bounds the lists.
  public static let maximumRepositoryDetails = maximumSessions + maximumPendingLoads

  /// The most pages of a list the state loads (10): 300 repositories at the worker's 30 a page
  /// (``GitHubClient/Configuration/perPage``), 1,000 at GitHub's most, which is as many as a
  /// page can usefully show one after the other. GitHub pages an owner's repositories to the
  /// end (thousands for the largest organizations), so without it one list could grow with
  /// every "more" to hold them all. A list whose next page lies beyond it shows no next page
  /// (``RepositoryList/nextPage`` is `nil`) but keeps GitHub's ``RepositoryList/lastPage``,
  /// and a request for such a page is not queued (the leader's validation refuses it).
  public static let maximumListPages = 10

  /// The most entries one page of a GitHub list brings into the state (100, GitHub's most
  /// `per_page`): repositories of a list, branches and commits of a detail. A worker asks for
  /// fewer (``GitHubClient/Configuration/perPage``, and 10 commits); a load whose answer holds
  /// more fails, saying so (``LoadFailure/Kind/server``).
  public static let maximumPageEntries = 100

  /// The most bytes (UTF-8) of a README a detail keeps (64 KiB): the README of nearly every
  /// project fits (most have a few KiB; those beyond are mostly long lists of links), while
  /// GitHub serves READMEs of up to a megabyte, and 1,100 details of that would make the state
  /// a gigabyte. A longer README is cut at the last whole character within the bound, and the
  /// detail's ``RepositoryDetail/fullReadmeBytes`` says how long it was (the page shows that it
  /// was cut).
  public static let maximumReadmeBytes = 64 << 10

  /// The list kept under `key` (an empty one if none), to read or change in place; an entry
  /// made for it is stamped with the last navigation so far.
  subscript(list key: String) -> RepositoryList {
    get { repositoryLists[key]?.value ?? RepositoryList() }
    set {
      repositoryLists[key, default: CacheEntry(newValue, lastNavigation: navigations)].value =
        newValue
    }
  }

  /// The detail kept under `key` (an empty one if none), to read or change in place; an entry
  /// made for it is stamped with the last navigation so far.
  subscript(detail key: String) -> RepositoryDetail {
    get { repositories[key]?.value ?? RepositoryDetail() }
    set {
      repositories[key, default: CacheEntry(newValue, lastNavigation: navigations)].value =
        newValue
    }
  }

  /// Stamps the data `screen` shows `account`, if the state has it, with the current
  /// navigation.
  mutating func markNavigated(to screen: Route.Screen, account: String) {
    switch screen.cacheKey(account: account) {
    case .list(let key)?: repositoryLists[key]?.lastNavigation = navigations
    case .detail(let key)?: repositories[key]?.lastNavigation = navigations
    case nil: break
    }
  }

  /// Drops the least recently navigated lists and details beyond ``maximumRepositoryLists``
  /// and ``maximumRepositoryDetails`` that no session shows and no pending load targets.
  mutating func evictBeyondCacheBounds() {
    guard
      repositoryLists.count > Self.maximumRepositoryLists
        || repositories.count > Self.maximumRepositoryDetails
    else { return }
    var inUse = Set(sessions.values.compactMap { $0.route.screen.cacheKey(account: $0.account) })
    inUse.formUnion(loads.map { $0.target.cacheKey(account: $0.account) })
    repositoryLists.evictLeastRecentlyNavigated(beyond: Self.maximumRepositoryLists) {
      inUse.contains(.list($0))
    }
    repositories.evictLeastRecentlyNavigated(beyond: Self.maximumRepositoryDetails) {
      inUse.contains(.detail($0))
    }
  }
}

/// Where a screen's or a load's data is kept in the state.
enum CacheKey: Hashable {
  /// A ``BrowserState/repositoryLists`` key.
  case list(String)
  /// A ``BrowserState/repositories`` key.
  case detail(String)
}

extension Route.Screen {
  /// The key of the data the screen shows `account`; `nil` for the bookmarks, which hold names
  /// only.
  func cacheKey(account: String) -> CacheKey? {
    switch self {
    case .repositories(let source): .list(BrowserState.cacheKey(source.key, account: account))
    case .repository(let owner, let name):
      .detail(
        BrowserState.cacheKey(LoadTarget.detailKey(owner: owner, name: name), account: account))
    case .bookmarks: nil
    }
  }
}

extension LoadTarget {
  /// The key of the data the load fills in for `account`.
  func cacheKey(account: String) -> CacheKey {
    switch self {
    case .repositories(let source, _): .list(BrowserState.cacheKey(source.key, account: account))
    case .repository(let owner, let name):
      .detail(
        BrowserState.cacheKey(LoadTarget.detailKey(owner: owner, name: name), account: account))
    }
  }
}
