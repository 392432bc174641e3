/// Applies `action` to `state`. Pure: no clock, no I/O; every effect happens in a worker.
/// After every action the state is within its bounds (``BrowserState/maximumSessions``,
/// ``BrowserState/maximumPendingLoads``, ``BrowserState/maximumPendingLoadsPerSession``,
/// ``BrowserState/maximumRepositoryLists``, ``BrowserState/maximumRepositoryDetails``,
/// ``BrowserState/maximumListPages``, ``BrowserState/maximumReadmeBytes``,
/// ``BrowserState/maximumPageEntries``), and so is every text from GitHub (``TextBound``,
/// ``NameBound``).
///
/// ```swift
/// var state = BrowserState()
/// browserReducer(&state, .navigate(session: "s1", route: Route(screen: .bookmarks)))
/// browserReducer(&state, .addBookmark(Bookmark(owner: "apple", name: "swift")))
/// ```
public func browserReducer(_ state: inout BrowserState, _ action: BrowserAction) {
  switch action {
  case .identityResolved(let identity):
    // The leader's validation refuses a login beyond NameBound.login with a reason; one that
    // reaches the reducer all the same changes nothing.
    if let identity = try? identity.bounded() { state.identity = identity }
  case .requestLoad(let target, let session, let account):
    state.requestLoad(target, session: session, account: account)
  case .claimLoad(let id, let workerID, let now, let expiresAt):
    state.claimLoad(id: id, workerID: workerID, now: now, expiresAt: expiresAt)
  case .releaseLoad(let id, let workerID):
    if let index = state.loads.firstIndex(where: { $0.id == id }),
      state.loads[index].claim?.workerID == workerID
    {
      state.loads[index].claim = nil
    }
  case .completeLoad(let id, let workerID, let result):
    state.completeLoad(id: id, workerID: workerID, result: result)
  case .addBookmark(let bookmark, let account):
    // The leader's validation refuses a new bookmark beyond the bound with a reason; one that
    // reaches the reducer all the same (dispatched on the leader itself) changes nothing.
    if !state.hasBookmark(bookmark, account: account),
      state.bookmarks(of: account).count < BrowserState.maximumBookmarks
    {
      state.bookmarks[account, default: []].append(bookmark)
    }
  case .removeBookmark(let bookmark, let account):
    let key = bookmark.fullName.lowercased()
    state.bookmarks[account]?.removeAll { $0.fullName.lowercased() == key }
    if state.bookmarks[account]?.isEmpty == true { state.bookmarks[account] = nil }
  case .navigate(let session, let route, let account):
    state.navigate(session: session, to: route, account: account)
    state.markNavigated(to: route.screen, account: account)
    state.requestMissingData(for: route.screen, session: session, account: account)
  case .endSession(let session):
    state.sessions[session] = nil
  }
  state.evictBeyondCacheBounds()
}
