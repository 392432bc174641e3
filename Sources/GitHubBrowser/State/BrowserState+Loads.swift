extension BrowserState {
  /// The most loads ``loads`` holds. Workers perform loads at GitHub's rate (about 5,000
  /// requests an hour with a token, 60 without), so a client requesting ever-new owners or
  /// repositories could otherwise queue work, and grow the state, without bound. A request
  /// beyond it is not queued: its data shows ``LoadStatus/failed(_:)`` with
  /// ``LoadFailure/Kind/queueFull`` (unless another page of the same list is pending), and the
  /// next navigation to the data, or a retry, requests it again.
  public static let maximumPendingLoads = 100

  /// The most pending loads one session may have requested (10), so that one browser tab, or
  /// a script navigating under one session id, cannot fill the queue and make every other
  /// session's loads wait behind its own. A tab needs one load per screen it opens, and a
  /// list's pages are loaded one at a time, so ten cover a user opening screens faster than
  /// the workers load them (or while a rate limit holds the loads back); and ten sessions at
  /// their full share still fit in ``maximumPendingLoads``. A request beyond it is refused as
  /// one beyond ``maximumPendingLoads`` is, with ``LoadFailure/Kind/sessionQueueFull``.
  public static let maximumPendingLoadsPerSession = 10

  /// Adds `session`'s load request for `account` unless the same target is pending for the
  /// same account, and marks `account`'s data loading. A list page other than 1 (which starts the list over) is accepted only if it
  /// comes right after the pages loaded or requested so far, and none beyond
  /// ``maximumListPages``. Targets are kept
  /// ``LoadTarget/normalized``. Beyond ``maximumPendingLoads``, or
  /// ``maximumPendingLoadsPerSession`` for `session`, the request is refused and its data says
  /// so.
  mutating func requestLoad(_ requested: LoadTarget, session: String, account: String) {
    let target = requested.normalized
    if case .repositories(let source, let page) = target {
      guard page <= Self.maximumListPages,
        page == 1 || page == highestPage(of: source, account: account) + 1
      else { return }
    }
    guard !loads.contains(where: { $0.target == target && $0.account == account }) else {
      return
    }
    if let refusal = queueRefusal(for: session) {
      if case .repositories(let source, _) = target,
        pendingStatus(of: source, account: account) == .loading
      {
        return  // the list still shows its pending page as loading
      }
      setStatus(.failed(refusal), of: target, account: account)
      return
    }
    loads.append(LoadRequest(id: nextLoadID, target: target, session: session, account: account))
    nextLoadID += 1
    setStatus(.loading, of: target, account: account)
  }

  /// Why another load requested by `session` cannot be queued now; `nil` if it can.
  private func queueRefusal(for session: String) -> LoadFailure? {
    if loads.count >= Self.maximumPendingLoads { return Self.queueFullFailure }
    let requested = loads.count { $0.session == session }
    return requested >= Self.maximumPendingLoadsPerSession ? Self.sessionQueueFullFailure : nil
  }

  /// What data shows when its load was refused for ``maximumPendingLoads``.
  static let queueFullFailure = LoadFailure(
    kind: .queueFull,
    message:
      "\(maximumPendingLoads) loads are waiting for GitHub already, so this one was not requested;"
      + " try again in a moment")

  /// What data shows when its load was refused for ``maximumPendingLoadsPerSession``. The data
  /// is shared, so the message speaks of the tab that asked, which may not be the one reading.
  static let sessionQueueFullFailure = LoadFailure(
    kind: .sessionQueueFull,
    message:
      "the tab that asked for this had \(maximumPendingLoadsPerSession) loads waiting for GitHub"
      + " already (the most one tab may have), so it was not requested; try again once they"
      + " have loaded")

  /// Grants or renews a claim, in the order the leader applies claims.
  mutating func claimLoad(id: Int, workerID: String, now: Int64, expiresAt: Int64) {
    guard expiresAt > now, let index = loads.firstIndex(where: { $0.id == id }) else { return }
    let load = loads[index]
    if load.isClaimed(by: workerID, at: now) {
      loads[index].claim?.expiresAt = expiresAt
    } else if isClaimable(load, at: now) {
      loads[index].claim = Claim(workerID: workerID, expiresAt: expiresAt)
      loads[index].attempts += 1
    }
  }

  /// Applies a result from the claim's holder, bounded as ``LoadResult/Outcome/bounded``
  /// describes (a worker bounds it before sending); a rate-limited load waits for the reset.
  mutating func completeLoad(id: Int, workerID: String, result: LoadResult) {
    guard let index = loads.firstIndex(where: { $0.id == id }),
      loads[index].claim?.workerID == workerID
    else { return }
    let account = loads[index].account
    if let rateLimit = result.rateLimit { rateLimits[account] = rateLimit }
    let target = loads[index].target
    let outcome = result.outcome.bounded
    if case .failed(let failure) = outcome, failure.kind == .rateLimited,
      let retryAt = failure.retryAt
    {
      loads[index].claim = nil
      loads[index].notBefore = retryAt.secondsInMilliseconds
      setStatus(.failed(failure), of: target, account: account)
      return
    }
    loads.remove(at: index)
    switch outcome {
    case .failed(let failure):
      setStatus(.failed(failure), of: target, account: account)
    case .repositories(let page):
      guard case .repositories(let source, let number) = target else { return }
      applyPage(page, number: number, to: source, account: account)
    case .repository(var detail):
      guard case .repository(let owner, let name) = target else { return }
      detail.status = .loaded
      self[
        detail: Self.cacheKey(LoadTarget.detailKey(owner: owner, name: name), account: account)] =
        detail
    }
  }

  /// Requests, for `session` as `account`, what a screen needs and nobody has loaded or
  /// requested yet for that account.
  mutating func requestMissingData(for screen: Route.Screen, session: String, account: String) {
    switch screen {
    case .repositories(let source):
      let list = list(for: source, account: account)
      if list.pagesLoaded == 0 && list.status != .loading {
        requestLoad(.repositories(source, page: 1), session: session, account: account)
      }
    case .repository(let owner, let name):
      switch detail(owner: owner, name: name, account: account).status {
      case .idle, .failed:
        requestLoad(.repository(owner: owner, name: name), session: session, account: account)
      case .loading, .loaded: break
      }
    case .bookmarks:
      break
    }
  }

  private mutating func applyPage(
    _ page: RepositoryPage, number: Int, to source: RepositorySource, account: String
  ) {
    let key = Self.cacheKey(source.key, account: account)
    var list = self[list: key]
    if number == 1 {
      list.repositories = page.repositories
    } else if number == list.pagesLoaded + 1 {
      list.repositories += page.repositories
    } else {
      // A stale page (a refresh started over meanwhile): keep what is loaded.
      list.status = pendingStatus(of: source, account: account)
      self[list: key] = list
      return
    }
    list.pagesLoaded = number
    list.nextPage = page.nextPage.flatMap { $0 <= Self.maximumListPages ? $0 : nil }
    list.lastPage = page.lastPage ?? list.lastPage
    list.status = pendingStatus(of: source, account: account)
    self[list: key] = list
  }

  /// The highest page of `account`'s list of `source` loaded or pending.
  private func highestPage(of source: RepositorySource, account: String) -> Int {
    var highest = list(for: source, account: account).pagesLoaded
    for load in loads where load.account == account {
      if case .repositories(let other, let page) = load.target, other == source {
        highest = max(highest, page)
      }
    }
    return highest
  }

  private func pendingStatus(of source: RepositorySource, account: String) -> LoadStatus {
    let pending = loads.contains { load in
      guard load.account == account else { return false }
      if case .repositories(let other, _) = load.target { return other == source }
      return false
    }
    return pending ? .loading : .loaded
  }

  private mutating func setStatus(_ status: LoadStatus, of target: LoadTarget, account: String) {
    switch target.cacheKey(account: account) {
    case .list(let key): self[list: key].status = status
    case .detail(let key): self[detail: key].status = status
    }
  }
}
