import Testing

@testable import GitHubBrowser

/// One account's rate limit or slow answers hold up no other account's loads, and within an
/// account one owner's hold up no other owner's: the state's claim rule and the worker's
/// choice of loads.
@Suite struct AccountIsolationTests {
  static let now: Int64 = 1_800_000_000_000

  static func request(
    _ owner: String, _ account: String, session: String = "s"
  )
    -> BrowserAction
  {
    .requestLoad(.repositories(.owner(owner), page: 1), session: session, account: account)
  }

  @Test func anExhaustedRateLimitHoldsBackOnlyItsOwnAccountsLoads() {
    var state = BrowserState()
    browserReducer(&state, Self.request("rate-limited", "ada", session: "a"))
    browserReducer(&state, Self.request("grace", "ada", session: "a"))
    browserReducer(&state, Self.request("grace", "grace", session: "g"))
    browserReducer(&state, Self.request("octo-org", "", session: "x"))
    browserReducer(
      &state, .claimLoad(id: 1, workerID: "w", now: Self.now, expiresAt: Self.now + 10_000))
    let limited = LoadFailure(
      kind: .rateLimited, message: "API rate limit exceeded", retryAt: Self.now / 1000 + 60)
    browserReducer(
      &state,
      .completeLoad(
        id: 1, workerID: "w",
        result: LoadResult(
          .failed(limited),
          rateLimit: RateLimitStatus(limit: 5000, remaining: 0, resetAt: Self.now / 1000 + 60))))
    #expect(state.isRateLimited("ada", at: Self.now))
    #expect(!state.isRateLimited("grace", at: Self.now))
    #expect(state.rateLimit == nil, "the service's own account has its own limit")
    let claimable = state.claimableLoads(at: Self.now).map(\.account)
    #expect(claimable == ["grace", ""], "ada's loads wait for ada's reset, nobody else's do")
    let afterReset = state.claimableLoads(at: Self.now + 61_000).map(\.account)
    #expect(afterReset == ["ada", "ada", "grace", ""])
  }

  @Test func theSameTargetIsOneLoadPerAccountAndEachAccountSeesItsOwnData() {
    var state = BrowserState()
    let home = Route(screen: .repositories(.signedInUser))
    browserReducer(&state, .navigate(session: "a", route: home, account: "ada"))
    browserReducer(&state, .navigate(session: "a2", route: home, account: "ada"))
    browserReducer(&state, .navigate(session: "g", route: home, account: "grace"))
    #expect(state.loads.map(\.account) == ["ada", "grace"])
    browserReducer(
      &state, .claimLoad(id: 1, workerID: "w", now: Self.now, expiresAt: Self.now + 10_000))
    let page = RepositoryPage(repositories: [RepositorySummary(id: 1, owner: "ada", name: "secret")]
    )
    browserReducer(
      &state, .completeLoad(id: 1, workerID: "w", result: LoadResult(.repositories(page))))
    #expect(state.list(for: .signedInUser, account: "ada").repositories.map(\.name) == ["secret"])
    #expect(state.list(for: .signedInUser, account: "grace").status == .loading)
    #expect(state.list(for: .signedInUser).status == .idle)
    let graceView = BrowserView(
      state: state, session: "a", connection: .live, viewer: .user(login: "grace", name: nil))
    #expect(graceView.list?.repositories.isEmpty == true, "a view shows its viewer's data only")
  }

  @Test func bookmarksBelongToTheirAccount() {
    var state = BrowserState()
    browserReducer(&state, .addBookmark(Bookmark(owner: "ada", name: "x"), account: "ada"))
    browserReducer(&state, .addBookmark(Bookmark(owner: "ada", name: "x"), account: "grace"))
    browserReducer(&state, .removeBookmark(Bookmark(owner: "ada", name: "x"), account: "ada"))
    #expect(state.bookmarks(of: "ada").isEmpty)
    #expect(state.bookmarks(of: "grace") == [Bookmark(owner: "ada", name: "x")])
    #expect(state.bookmarks(of: "").isEmpty)
  }

  @Test func validationRefusesAnAccountThatIsNotALoginInLowerCase() {
    let state = BrowserState()
    #expect(
      validateBrowserAction(AddBookmark(owner: "a", name: "b", account: "Ada"), in: state) != nil)
    #expect(
      validateBrowserAction(AddBookmark(owner: "a", name: "b", account: "a b"), in: state) != nil)
    #expect(
      validateBrowserAction(AddBookmark(owner: "a", name: "b", account: "ada"), in: state) == nil)
    #expect(validateBrowserAction(AddBookmark(owner: "a", name: "b"), in: state) == nil)
  }

  static func load(_ id: Int, _ account: String, _ owner: String) -> LoadRequest {
    LoadRequest(
      id: id, target: .repository(owner: owner, name: "r\(id)"), session: "s", account: account)
  }

  /// (claimable, running, chosen ids) with 2 loads an account and 1 an owner.
  static let schedulingCases: [([LoadRequest], [LoadRequest], [Int])] = [
    // One slow owner's loads take one slot; the account's other owner gets the other.
    (
      [load(1, "ada", "slowpoke"), load(2, "ada", "slowpoke"), load(3, "ada", "grace")], [], [1, 3]
    ),
    // An account at its share leaves another account's loads free to start.
    (
      [load(3, "ada", "x"), load(4, "grace", "y")], [load(1, "ada", "a"), load(2, "ada", "b")], [4]
    ),
    // Nothing is taken twice.
    ([load(1, "ada", "a"), load(2, "grace", "b")], [load(1, "ada", "a")], [2]),
    // Many accounts, no bound across them.
    ((1...5).map { load($0, "u\($0)", "o") }, [], [1, 2, 3, 4, 5]),
  ]

  @Test(arguments: schedulingCases)
  func aWorkerSharesItsSlotsByAccountAndOwner(
    claimable: [LoadRequest], running: [LoadRequest], chosen: [Int]
  ) {
    let next = LoadScheduling.next(from: claimable, running: running, perAccount: 2, perOwner: 1)
    #expect(next.map(\.id) == chosen)
  }
}
