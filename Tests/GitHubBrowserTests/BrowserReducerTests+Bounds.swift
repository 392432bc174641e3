import GitHubBrowser
import Testing

/// The bounds that keep the shared state finite whatever clients navigate to.
extension BrowserReducerTests {
  @Test func noLoadIsQueuedBeyondTheMaximumAndTheScreenSaysSo() {
    let owners: [BrowserAction] = (0..<BrowserState.maximumPendingLoads).map {
      .navigate(session: "script", route: Route(screen: .repositories(.owner("o\($0)"))))
    }
    let beyond: [BrowserAction] = [
      .navigate(session: "s", route: Route(screen: .repository(owner: "ada", name: "late"))),
      .requestLoad(.repositories(octo, page: 1)),
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

  @Test func aRefusedPageLeavesAListWithAPendingPageLoading() {
    var state = BrowserState()
    reduce(&state, .requestLoad(.repositories(octo, page: 1)))
    for index in 1..<BrowserState.maximumPendingLoads {
      reduce(&state, .requestLoad(.repository(owner: "o", name: "r\(index)")))
    }
    reduce(&state, .requestLoad(.repositories(octo, page: 2)))
    #expect(state.loads.count == BrowserState.maximumPendingLoads)
    #expect(state.list(for: octo).status == .loading)
  }
}
