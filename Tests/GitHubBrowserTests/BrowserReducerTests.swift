import Foundation
import GitHubBrowser
import Testing

@Suite struct BrowserReducerTests {
  func reduce(_ state: inout BrowserState, _ actions: BrowserAction...) {
    for action in actions { browserReducer(&state, action) }
  }

  let octo = RepositorySource.owner("octo-org")

  @Test func requestLoadNumbersLoadsInOrderAndSkipsDuplicates() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .requestLoad(.repository(owner: "a", name: "b"), session: "s"),
      .requestLoad(.repositories(octo, page: 1), session: "s"))
    #expect(state.loads.map(\.id) == [1, 2])
    #expect(state.nextLoadID == 3)
    #expect(state.list(for: octo).status == .loading)
    #expect(state.detail(owner: "A", name: "B").status == .loading)
  }

  @Test func navigatingRequestsMissingDataOnce() {
    var state = BrowserState()
    let route = Route(screen: .repositories(octo))
    reduce(
      &state, .navigate(session: "s1", route: route), .navigate(session: "s2", route: route),
      .navigate(session: "s1", route: Route(screen: .repository(owner: "octo-org", name: "x"))),
      .navigate(session: "s3", route: Route(screen: .bookmarks)))
    #expect(
      state.loads.map(\.target) == [
        .repositories(octo, page: 1), .repository(owner: "octo-org", name: "x"),
      ])
    #expect(state.sessions["s1"]?.route.screen == .repository(owner: "octo-org", name: "x"))
    #expect(state.sessions["s2"]?.route == route)
    reduce(&state, .endSession("s2"))
    #expect(state.sessions["s2"] == nil)
  }

  @Test func aNewSessionBeyondTheMaximumEndsTheLeastRecentlyActiveOne() {
    let route = Route(screen: .bookmarks)
    let fill: [BrowserAction] = (0..<BrowserState.maximumSessions).map {
      .navigate(session: "s\($0)", route: route)
    }
    // s0 navigates again, so s1 and s2 are the least recently active when two new ones come.
    let more: [BrowserAction] = [
      .navigate(session: "s0", route: Route(screen: .repositories(octo))),
      .navigate(session: "new-1", route: route), .navigate(session: "new-2", route: route),
    ]
    var state = BrowserState()
    for action in fill { browserReducer(&state, action) }
    #expect(state.sessions.count == BrowserState.maximumSessions)
    for action in more { browserReducer(&state, action) }
    #expect(state.sessions.count == BrowserState.maximumSessions)
    #expect(state.sessions["s0"]?.route.screen == .repositories(octo))
    #expect(state.sessions["s1"] == nil)
    #expect(state.sessions["s2"] == nil)
    #expect(state.sessions["s3"] != nil)
    #expect(state.sessions["new-2"]?.lastNavigation == state.navigations)

    // The same actions give the same state, as when the leader replays its journal.
    var replayed = BrowserState()
    for action in fill + more { browserReducer(&replayed, action) }
    #expect(replayed == state)
  }

  @Test func firstClaimWinsAndOthersAreRefused() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w1", now: 1000, expiresAt: 31_000),
      .claimLoad(id: 1, workerID: "w2", now: 1001, expiresAt: 31_001))
    #expect(state.load(1)?.claim == Claim(workerID: "w1", expiresAt: 31_000))
    #expect(state.load(1)?.attempts == 1)
    #expect(state.load(1)?.isClaimed(by: "w2", at: 1001) == false)
    #expect(state.claimableLoads(at: 1001).isEmpty)
  }

  @Test func holderRenewsItsClaimWithoutAnotherAttempt() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w1", now: 1000, expiresAt: 2000),
      .claimLoad(id: 1, workerID: "w1", now: 1900, expiresAt: 5000))
    #expect(state.load(1)?.claim?.expiresAt == 5000)
    #expect(state.load(1)?.attempts == 1)
  }

  @Test func expiredClaimIsTakenOver() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w1", now: 1000, expiresAt: 2000),
      .claimLoad(id: 1, workerID: "w2", now: 1999, expiresAt: 3000))
    #expect(state.load(1)?.claim?.workerID == "w1")
    reduce(&state, .claimLoad(id: 1, workerID: "w2", now: 2000, expiresAt: 3000))
    #expect(state.load(1)?.claim == Claim(workerID: "w2", expiresAt: 3000))
    #expect(state.load(1)?.attempts == 2)
    // The first worker's late result is ignored; the new holder's counts.
    let page = RepositoryPage(repositories: [RepositorySummary(id: 1, owner: "octo-org", name: "a")]
    )
    reduce(&state, .completeLoad(id: 1, workerID: "w1", result: LoadResult(.repositories(page))))
    #expect(state.load(1) != nil)
    reduce(&state, .completeLoad(id: 1, workerID: "w2", result: LoadResult(.repositories(page))))
    #expect(state.load(1) == nil)
    #expect(state.list(for: octo).repositories.map(\.name) == ["a"])
  }

  @Test func claimsThatExpireAtOnceOrNameUnknownLoadsAreIgnored() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w1", now: 1000, expiresAt: 1000),
      .claimLoad(id: 9, workerID: "w1", now: 1000, expiresAt: 2000))
    #expect(state.load(1)?.claim == nil)
    #expect(state.loads.count == 1)
  }

  @Test func releaseOnlyByTheHolder() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w1", now: 0, expiresAt: 10),
      .releaseLoad(id: 1, workerID: "w2"))
    #expect(state.load(1)?.claim != nil)
    reduce(&state, .releaseLoad(id: 1, workerID: "w1"))
    #expect(state.load(1)?.claim == nil)
    #expect(state.claimableLoads(at: 1).map(\.id) == [1])
  }

  func completePage(
    _ state: inout BrowserState, page number: Int, names: [String], next: Int?, last: Int?
  ) {
    browserReducer(&state, .requestLoad(.repositories(octo, page: number), session: "s"))
    let id = state.loads.last!.id
    let repositories = names.enumerated().map {
      RepositorySummary(id: $0.offset, owner: "octo-org", name: $0.element)
    }
    reduce(
      &state, .claimLoad(id: id, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(
        id: id, workerID: "w",
        result: LoadResult(
          .repositories(RepositoryPage(repositories: repositories, nextPage: next, lastPage: last)),
          rateLimit: RateLimitStatus(limit: 60, remaining: 50 - number, resetAt: 99))))
  }

  @Test func pagesAppendInOrderAndTrackPagination() {
    var state = BrowserState()
    completePage(&state, page: 1, names: ["a", "b"], next: 2, last: 3)
    completePage(&state, page: 2, names: ["c", "d"], next: 3, last: 3)
    var list = state.list(for: octo)
    #expect(list.repositories.map(\.name) == ["a", "b", "c", "d"])
    #expect(list.pagesLoaded == 2)
    #expect(list.nextPage == 3)
    #expect(list.hasMore)
    #expect(list.status == .loaded)
    #expect(state.rateLimit == RateLimitStatus(limit: 60, remaining: 48, resetAt: 99))
    completePage(&state, page: 3, names: ["e"], next: nil, last: nil)
    list = state.list(for: octo)
    #expect(list.repositories.count == 5)
    #expect(list.hasMore == false)
    #expect(list.lastPage == 3)
  }

  @Test func pageOneStartsTheListOver() {
    var state = BrowserState()
    completePage(&state, page: 1, names: ["a", "b"], next: 2, last: 2)
    completePage(&state, page: 2, names: ["c"], next: nil, last: nil)
    completePage(&state, page: 1, names: ["z"], next: 2, last: 2)
    #expect(state.list(for: octo).repositories.map(\.name) == ["z"])
    #expect(state.list(for: octo).pagesLoaded == 1)
    #expect(state.list(for: octo).nextPage == 2)
    #expect(state.list(for: octo).status == .loaded)
  }

  @Test func onlyTheNextPageCanBeRequested() {
    var state = BrowserState()
    completePage(&state, page: 1, names: ["a"], next: 2, last: 4)
    reduce(
      &state, .requestLoad(.repositories(octo, page: 3), session: "s"),
      .requestLoad(.repositories(octo, page: 0), session: "s")
    )
    #expect(state.loads.isEmpty)
    reduce(
      &state, .requestLoad(.repositories(octo, page: 2), session: "s"),
      .requestLoad(.repositories(octo, page: 3), session: "s")
    )
    #expect(
      state.loads.map(\.target) == [.repositories(octo, page: 2), .repositories(octo, page: 3)])
  }

  @Test func pagesOfOneListAreClaimedOneAtATime() {
    var state = BrowserState()
    let grace = RepositorySource.owner("grace")
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .requestLoad(.repositories(octo, page: 2), session: "s"),
      .requestLoad(.repositories(grace, page: 1), session: "s"))
    #expect(state.claimableLoads(at: 0).map(\.id) == [1, 3])
    reduce(&state, .claimLoad(id: 2, workerID: "w", now: 0, expiresAt: 10))
    #expect(state.load(2)?.claim == nil)
    reduce(
      &state, .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(
        id: 1, workerID: "w",
        result: LoadResult(.repositories(RepositoryPage(repositories: [], nextPage: 2)))))
    #expect(state.claimableLoads(at: 0).map(\.id) == [2, 3])
  }

  @Test func rateLimitedLoadWaitsForTheResetAndIsShown() {
    var state = BrowserState()
    let failure = LoadFailure(kind: .rateLimited, message: "API rate limit exceeded", retryAt: 500)
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w", now: 1000, expiresAt: 9000),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.failed(failure))))
    #expect(state.list(for: octo).status == .failed(failure))
    #expect(state.load(1)?.claim == nil)
    #expect(state.load(1)?.notBefore == 500_000)
    #expect(state.claimableLoads(at: 499_999).isEmpty)
    #expect(state.claimableLoads(at: 500_000).map(\.id) == [1])
    reduce(&state, .claimLoad(id: 1, workerID: "w", now: 2000, expiresAt: 9000))
    #expect(state.load(1)?.claim == nil)
  }

  @Test func everySpellingOfAnOwnerOrRepositoryIsOneLoad() {
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repositories(.owner("Octo-Org"), page: 1), session: "s"),
      .requestLoad(.repositories(.owner("octo-org"), page: 1), session: "s"),
      .requestLoad(.repository(owner: "Ada", name: "Cinder"), session: "s"),
      .requestLoad(.repository(owner: "ada", name: "cinder"), session: "s"))
    #expect(
      state.loads.map(\.target) == [
        .repositories(.owner("octo-org"), page: 1), .repository(owner: "ada", name: "cinder"),
      ])
    // The next page, in any spelling, waits for the first.
    reduce(&state, .requestLoad(.repositories(.owner("OCTO-ORG"), page: 2), session: "s"))
    #expect(state.claimableLoads(at: 0).map(\.id) == [1, 2])
  }

  @Test func aRetryTimeTooFarOffToCountInMillisecondsWaitsForGood() {
    var state = BrowserState()
    let failure = LoadFailure(kind: .rateLimited, message: "slow down", retryAt: .max / 10)
    reduce(
      &state, .requestLoad(.repositories(octo, page: 1), session: "s"),
      .claimLoad(id: 1, workerID: "w", now: 1000, expiresAt: 9000),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.failed(failure))))
    #expect(state.load(1)?.notBefore == .max)
    #expect(state.claimableLoads(at: .max - 1).isEmpty)
  }

  @Test func otherFailuresEndTheLoadAndAllowARetry() {
    var state = BrowserState()
    let failure = LoadFailure(kind: .notFound, message: "not found")
    reduce(
      &state, .navigate(session: "s", route: Route(screen: .repository(owner: "o", name: "r"))),
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.failed(failure))))
    #expect(state.loads.isEmpty)
    #expect(state.detail(owner: "o", name: "r").status == .failed(failure))
    reduce(
      &state, .navigate(session: "s", route: Route(screen: .repository(owner: "o", name: "r"))))
    #expect(state.loads.map(\.id) == [2])
  }

  @Test func detailResultIsStoredAsLoaded() {
    var state = BrowserState()
    var detail = RepositoryDetail()
    detail.summary = RepositorySummary(id: 7, owner: "o", name: "r", description: "d")
    detail.readme = "# r"
    detail.branches = [Branch(name: "main", sha: "abc", isProtected: true)]
    detail.commits = [CommitSummary(sha: "abc", title: "Start", author: "Ada", date: "2026")]
    reduce(
      &state, .requestLoad(.repository(owner: "O", name: "R"), session: "s"),
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.repository(detail))))
    detail.status = .loaded
    #expect(state.detail(owner: "o", name: "r") == detail)
    #expect(state.repositories.keys.sorted() == ["o/r"])
  }

  @Test func bookmarksAreAddedOnceAndRemoved() {
    var state = BrowserState()
    reduce(
      &state, .addBookmark(Bookmark(owner: "apple", name: "swift")),
      .addBookmark(Bookmark(owner: "Apple", name: "Swift")),
      .addBookmark(Bookmark(owner: "ada", name: "notes")))
    #expect(state.bookmarks(of: "").map(\.fullName) == ["apple/swift", "ada/notes"])
    reduce(&state, .removeBookmark(Bookmark(owner: "APPLE", name: "swift")))
    #expect(state.bookmarks(of: "").map(\.fullName) == ["ada/notes"])
  }

  @Test func identityIsRecordedWithoutAToken() throws {
    var state = BrowserState()
    reduce(&state, .identityResolved(.signedIn(login: "ada", name: "Ada Lovelace")))
    #expect(state.identity == .signedIn(login: "ada", name: "Ada Lovelace"))
  }

  @Test func stateRoundTripsThroughJSON() throws {
    var state = BrowserState()
    completePage(&state, page: 1, names: ["a"], next: 2, last: 2)
    reduce(
      &state, .addBookmark(Bookmark(owner: "o", name: "a")),
      .navigate(session: "s", route: Route(screen: .repository(owner: "o", name: "a"))),
      .identityResolved(.anonymous))
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(BrowserState.self, from: data) == state)
    let action = BrowserAction.claimLoad(id: 3, workerID: "w", now: 1, expiresAt: 2)
    #expect(
      try JSONDecoder().decode(BrowserAction.self, from: JSONEncoder().encode(action)) == action)
  }
}
