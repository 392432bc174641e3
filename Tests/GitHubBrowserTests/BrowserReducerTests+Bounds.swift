import GitHubBrowser
import Testing

/// The bounds that keep the shared state finite whatever clients navigate to.
extension BrowserReducerTests {
  @Test func noLoadIsQueuedBeyondTheMaximumAndTheScreenSaysSo() {
    let owners: [BrowserAction] = (0..<BrowserState.maximumPendingLoads).map {
      .navigate(session: "s\($0)", route: Route(screen: .repositories(.owner("o\($0)"))))
    }
    let beyond: [BrowserAction] = [
      .navigate(session: "s", route: Route(screen: .repository(owner: "ada", name: "late"))),
      .requestLoad(.repositories(octo, page: 1), session: "s"),
    ]
    var state = BrowserState()
    for action in owners + beyond { browserReducer(&state, action) }
    #expect(state.loads.count == BrowserState.maximumPendingLoads)
    #expect(!state.loads.contains { $0.target == .repository(owner: "ada", name: "late") })
    let refused = state.detail(owner: "ada", name: "late").status
    guard case .failed(let failure) = refused else {
      Issue.record("the refused detail shows \(refused)")
      return
    }
    #expect(failure.kind == .queueFull)
    #expect(state.list(for: octo).status == .failed(failure))

    // Workers still claim and complete the queued loads; the next navigation requests anew.
    let later: [BrowserAction] = [
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(
        id: 1, workerID: "w", result: LoadResult(.repositories(RepositoryPage(repositories: [])))),
      .navigate(session: "s", route: Route(screen: .repository(owner: "ada", name: "late"))),
    ]
    for action in later { browserReducer(&state, action) }
    #expect(state.loads.count == BrowserState.maximumPendingLoads)
    #expect(state.loads.last?.target == .repository(owner: "ada", name: "late"))
    #expect(state.detail(owner: "ada", name: "late").status == .loading)

    // The same actions give the same state, as when the leader replays its journal.
    var replayed = BrowserState()
    for action in owners + beyond + later { browserReducer(&replayed, action) }
    #expect(replayed == state)
  }

  @Test func oneSessionQueuesNoMoreThanItsShareAndTheOthersStillQueue() {
    let share = BrowserState.maximumPendingLoadsPerSession
    let open = { (session: String, name: String) -> BrowserAction in
      .navigate(session: session, route: Route(screen: .repository(owner: "o", name: name)))
    }
    let greedy: [BrowserAction] =
      (0..<share).map { open("greedy", "r\($0)") } + [
        open("greedy", "one-too-many"),
        .requestLoad(.repositories(octo, page: 1), session: "greedy"),
      ]
    var state = BrowserState()
    for action in greedy { browserReducer(&state, action) }
    #expect(state.loads.count == share)
    #expect(state.loads.allSatisfy { $0.session == "greedy" })
    let refused = state.detail(owner: "o", name: "one-too-many").status
    guard case .failed(let failure) = refused else {
      Issue.record("the refused detail shows \(refused)")
      return
    }
    #expect(failure.kind == .sessionQueueFull)
    #expect(failure.message.contains("\(share) loads waiting"))
    #expect(state.list(for: octo).status == .failed(failure))

    // Another session's loads are queued; data already pending is no new load for anyone.
    let others: [BrowserAction] = [
      open("other", "wanted"), .requestLoad(.repositories(octo, page: 1), session: "other"),
      open("greedy", "r0"),
    ]
    for action in others { browserReducer(&state, action) }
    #expect(state.loads.suffix(2).map(\.session) == ["other", "other"])
    #expect(state.detail(owner: "o", name: "wanted").status == .loading)
    #expect(state.list(for: octo).status == .loading)

    // Once one of its loads is done, the session may queue another.
    let later: [BrowserAction] = [
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.repository(RepositoryDetail()))),
      open("greedy", "one-too-many"),
    ]
    for action in later { browserReducer(&state, action) }
    #expect(state.loads.last?.session == "greedy")
    #expect(state.detail(owner: "o", name: "one-too-many").status == .loading)

    // The same actions give the same state, as when the leader replays its journal.
    var replayed = BrowserState()
    for action in greedy + others + later { browserReducer(&replayed, action) }
    #expect(replayed == state)
  }

  @Test func aListLoadsNoPageBeyondTheMaximumAndKeepsGitHubsLastPage() {
    let bound = BrowserState.maximumListPages
    var state = BrowserState()
    for number in 1...bound {
      completePage(&state, page: number, names: ["r\(number)"], next: number + 1, last: 40)
    }
    let list = state.list(for: octo)
    #expect(list.pagesLoaded == bound)
    #expect(list.repositories.count == bound)
    #expect(list.nextPage == nil)
    #expect(list.lastPage == 40)
    #expect(!list.hasMore)
    reduce(&state, .requestLoad(.repositories(octo, page: bound + 1), session: "s"))
    #expect(state.loads.isEmpty)
    #expect(state.list(for: octo) == list)
  }

  @Test func aReadmeBeyondTheMaximumIsCutBeforeAWholeCharacterAndSaysHowLongItWas() {
    // "e" and a combining acute accent are one character of 3 bytes, starting one byte before
    // the bound: a cut at the bound would keep the "e" without its accent.
    let kept = String(repeating: "a", count: BrowserState.maximumReadmeBytes - 1)
    let full = kept + "e\u{301} and more"
    var detail = RepositoryDetail()
    detail.readme = full
    var state = BrowserState()
    reduce(
      &state, .requestLoad(.repository(owner: "o", name: "r"), session: "s"),
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: 1, workerID: "w", result: LoadResult(.repository(detail))))
    let stored = state.detail(owner: "o", name: "r")
    #expect(stored.readme == kept)
    expectReadme(of: stored, cutFrom: full)
  }

  @Test func aRefusedPageLeavesAListWithAPendingPageLoading() {
    var state = BrowserState()
    reduce(&state, .requestLoad(.repositories(octo, page: 1), session: "s"))
    for index in 1..<BrowserState.maximumPendingLoads {
      reduce(&state, .requestLoad(.repository(owner: "o", name: "r\(index)"), session: "s\(index)"))
    }
    reduce(&state, .requestLoad(.repositories(octo, page: 2), session: "s"))
    #expect(state.loads.count == BrowserState.maximumPendingLoads)
    #expect(state.list(for: octo).status == .loading)
  }
}

extension BrowserReducerTests {
  /// The actions of a script that navigates to `count` new owners and `count` new repositories,
  /// with a worker loading each at once, applied to `state`.
  func browseEverNewNames(_ count: Int, in state: inout BrowserState) -> [BrowserAction] {
    var actions: [BrowserAction] = []
    func apply(_ action: BrowserAction) {
      browserReducer(&state, action)
      actions.append(action)
    }
    let listed = LoadResult(.repositories(RepositoryPage(repositories: [])))
    for index in 1...count {
      for (screen, result) in [
        (Route.Screen.repositories(.owner("o\(index)")), listed),
        (.repository(owner: "o", name: "r\(index)"), LoadResult(.repository(RepositoryDetail()))),
      ] {
        apply(.navigate(session: "script", route: Route(screen: screen)))
        let id = state.loads.last!.id
        apply(.claimLoad(id: id, workerID: "w", now: 0, expiresAt: 10))
        apply(.completeLoad(id: id, workerID: "w", result: result))
      }
    }
    return actions
  }

  @Test func cachedListsAndDetailsStayWithinTheirBoundsKeepingWhatIsInUse() {
    var state = BrowserState()
    // The oldest entries: two a session shows (loaded), two a pending load targets.
    var actions: [BrowserAction] = [
      .navigate(session: "list", route: Route(screen: .repositories(octo))),
      .navigate(session: "detail", route: Route(screen: .repository(owner: "ada", name: "shown"))),
      .claimLoad(id: 1, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(
        id: 1, workerID: "w", result: LoadResult(.repositories(RepositoryPage(repositories: [])))),
      .claimLoad(id: 2, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: 2, workerID: "w", result: LoadResult(.repository(RepositoryDetail()))),
      .requestLoad(.repositories(.owner("pending"), page: 1), session: "s"),
      .requestLoad(.repository(owner: "ada", name: "pending"), session: "s"),
    ]
    for action in actions { browserReducer(&state, action) }
    let count = max(BrowserState.maximumRepositoryLists, BrowserState.maximumRepositoryDetails)
    actions += browseEverNewNames(count + 10, in: &state)

    #expect(state.repositoryLists.count == BrowserState.maximumRepositoryLists)
    #expect(state.repositories.count == BrowserState.maximumRepositoryDetails)
    #expect(state.list(for: octo).status == .loaded)
    #expect(state.detail(owner: "ada", name: "shown").status == .loaded)
    #expect(state.list(for: .owner("pending")).status == .loading)
    #expect(state.detail(owner: "ada", name: "pending").status == .loading)
    // The least recently navigated of the others went first; the latest stay.
    #expect(state.repositoryLists["o1"] == nil)
    #expect(state.repositories["o/r1"] == nil)
    #expect(state.list(for: .owner("o\(count + 10)")).status == .loaded)
    #expect(state.detail(owner: "o", name: "r\(count + 10)").status == .loaded)

    // The same actions give the same state, as when the leader replays its journal.
    var replayed = BrowserState()
    for action in actions { browserReducer(&replayed, action) }
    #expect(replayed == state)

    // An evicted entry is simply loaded again when navigated to.
    reduce(&state, .navigate(session: "script", route: Route(screen: .repositories(.owner("o1")))))
    #expect(state.list(for: .owner("o1")).status == .loading)
    #expect(state.loads.last?.target == .repositories(.owner("o1"), page: 1))
  }

  @Test func aNavigationMakesAnEntryTheMostRecentAgain() {
    var state = BrowserState()
    let first = Route(screen: .repository(owner: "o", name: "r1"))
    _ = browseEverNewNames(BrowserState.maximumRepositoryDetails, in: &state)
    // r1 is navigated to again (and is left at once), so r2 is now the oldest.
    reduce(
      &state, .navigate(session: "s", route: first),
      .navigate(session: "s", route: Route(screen: .bookmarks)),
      .navigate(session: "s", route: Route(screen: .repository(owner: "o", name: "new"))))
    #expect(state.repositories.count == BrowserState.maximumRepositoryDetails)
    #expect(state.repositories["o/r1"] != nil)
    #expect(state.repositories["o/r2"] == nil)
  }

  @Test func whatSessionsShowAndLoadsTargetIsNeverEvictedEvenWhenNearlyAllIs() {
    var state = BrowserState()
    // The queue fills with lists nobody shows, then every session shows a list of its own
    // (refused as the queue is full): all lists in use, as many as the bound.
    for index in 0..<BrowserState.maximumPendingLoads {
      reduce(
        &state, .requestLoad(.repositories(.owner("queued\(index)"), page: 1), session: "q\(index)")
      )
    }
    for index in 0..<BrowserState.maximumSessions {
      reduce(
        &state,
        .navigate(session: "s\(index)", route: Route(screen: .repositories(.owner("o\(index)")))))
    }
    #expect(state.repositoryLists.count == BrowserState.maximumRepositoryLists)
    // s0 moves on: o0 is the one list out of use, and the only one to go.
    reduce(&state, .navigate(session: "s0", route: Route(screen: .repositories(.owner("new")))))
    #expect(state.repositoryLists.count == BrowserState.maximumRepositoryLists)
    #expect(state.repositoryLists["o0"] == nil)
    #expect(state.repositoryLists["o1"] != nil)
    #expect(state.repositoryLists["queued0"] != nil)
    #expect(state.repositoryLists["new"] != nil)
  }
}
