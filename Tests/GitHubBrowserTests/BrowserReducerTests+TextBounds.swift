import GitHubBrowser
import Testing

/// The bounds on the text and names the state takes from GitHub.
extension BrowserReducerTests {
  /// Text one byte longer than `bound` allows whose last whole character that fits with "…"
  /// ends 4 bytes before the bound: "e" and a combining acute accent (one character of 3
  /// bytes) follow, so a cut by bytes would keep the "e" without its accent.
  func overlong(_ bound: TextBound) -> String {
    String(repeating: "a", count: bound.maximumBytes - 4) + "e\u{301}" + "zz"
  }

  /// Requests, claims and completes the load of `target` with `outcome`.
  func complete(_ state: inout BrowserState, _ target: LoadTarget, _ outcome: LoadResult.Outcome) {
    browserReducer(&state, .requestLoad(target, session: "s"))
    let id = state.loads.last!.id
    reduce(
      &state, .claimLoad(id: id, workerID: "w", now: 0, expiresAt: 10),
      .completeLoad(id: id, workerID: "w", result: LoadResult(outcome)))
  }

  @Test func eachTextFromGitHubBeyondItsBoundIsCutAtAWholeCharacterWithAnEllipsis() {
    let (description, language, time) = (
      overlong(.description), overlong(.language), overlong(.timestamp)
    )
    let (title, author) = (overlong(.commitTitle), overlong(.personName))
    var detail = RepositoryDetail()
    detail.summary = RepositorySummary(
      id: 1, owner: "o", name: "r", description: description, language: language,
      updatedAt: time)
    detail.commits = [CommitSummary(sha: "c0ffee", title: title, author: author, date: time)]
    var state = BrowserState()
    complete(&state, .repository(owner: "o", name: "r"), .repository(detail))
    let page = RepositoryPage(repositories: [detail.summary!])
    complete(&state, .repositories(octo, page: 1), .repositories(page))

    let stored = state.detail(owner: "o", name: "r")
    #expect(stored.status == .loaded)
    expectCut(stored.summary?.description, from: description, to: .description)
    expectCut(stored.summary?.language, from: language, to: .language)
    expectCut(stored.summary?.updatedAt, from: time, to: .timestamp)
    expectCut(stored.commits.first?.title, from: title, to: .commitTitle)
    expectCut(stored.commits.first?.author, from: author, to: .personName)
    expectCut(stored.commits.first?.date, from: time, to: .timestamp)
    #expect(state.list(for: octo).repositories == [stored.summary!])
  }

  @Test func textThatFitsItsBoundIsKeptWhole() {
    // A 4-byte character ending exactly at each bound.
    func fitting(_ bound: TextBound) -> String {
      String(repeating: "a", count: bound.maximumBytes - 4) + "😀"
    }
    var detail = RepositoryDetail()
    detail.summary = RepositorySummary(
      id: 1, owner: "o", name: "r", description: fitting(.description),
      language: fitting(.language), updatedAt: fitting(.timestamp))
    detail.commits = [
      CommitSummary(
        sha: "c0ffee", title: fitting(.commitTitle), author: fitting(.personName),
        date: fitting(.timestamp))
    ]
    var state = BrowserState()
    complete(&state, .repository(owner: "o", name: "r"), .repository(detail))
    detail.status = .loaded
    #expect(state.detail(owner: "o", name: "r") == detail)
  }

  /// A detail whose name of kind `bound` has `bytes` bytes.
  func detail(naming bound: NameBound, bytes: Int) -> RepositoryDetail {
    let name = String(repeating: "n", count: bytes)
    var summary = RepositorySummary(id: 1, owner: "o", name: "r")
    var branch = Branch(name: "main", sha: "c0ffee")
    switch bound {
    case .login: summary.owner = name
    case .repositoryName: summary.name = name
    case .branchName: branch.name = name
    case .sha: branch.sha = name
    }
    var detail = RepositoryDetail()
    detail.summary = summary
    detail.branches = [branch]
    return detail
  }

  @Test(arguments: NameBound.allCases) func aNameBeyondItsBoundFailsTheLoadSayingSo(
    _ bound: NameBound
  ) {
    var state = BrowserState()
    let within = detail(naming: bound, bytes: bound.maximumBytes)
    complete(&state, .repository(owner: "o", name: "within"), .repository(within))
    #expect(state.detail(owner: "o", name: "within").branches == within.branches)

    complete(
      &state, .repository(owner: "o", name: "beyond"),
      .repository(detail(naming: bound, bytes: bound.maximumBytes + 1)))
    let beyond = state.detail(owner: "o", name: "beyond")
    #expect(beyond.summary == nil)
    guard case .failed(let failure) = beyond.status else {
      Issue.record("the detail shows \(beyond.status)")
      return
    }
    #expect(failure.kind == .server)
    let (most, sent) = (bound.maximumBytes, bound.maximumBytes + 1)
    #expect(failure.message.hasPrefix("GitHub sent a"))
    #expect(failure.message.contains(" of \(sent) bytes, longer than one can be (\(most)): 'nnn"))
    #expect(failure.message.utf8.count <= TextBound.message.maximumBytes)
  }

  @Test func aListPageWithANameBeyondItsBoundFailsAndKeepsThePagesLoaded() {
    var state = BrowserState()
    completePage(&state, page: 1, names: ["a"], next: 2, last: 3)
    let overlong = String(repeating: "n", count: NameBound.repositoryName.maximumBytes + 1)
    completePage(&state, page: 2, names: ["b", overlong], next: 3, last: 3)
    let list = state.list(for: octo)
    #expect(list.repositories.map(\.name) == ["a"])
    #expect(list.pagesLoaded == 1)
    guard case .failed(let failure) = list.status else {
      Issue.record("the list shows \(list.status)")
      return
    }
    #expect(failure.message.hasPrefix("GitHub sent a repository name of 101 bytes"))
  }

  @Test func aPageWithMoreEntriesThanAPageHoldsFailsSayingSo() {
    let most = BrowserState.maximumPageEntries
    var state = BrowserState()
    completePage(&state, page: 1, names: (0..<most).map { "r\($0)" }, next: 2, last: 2)
    #expect(state.list(for: octo).repositories.count == most)
    completePage(&state, page: 2, names: (0...most).map { "s\($0)" }, next: nil, last: 2)
    #expect(state.list(for: octo).repositories.count == most)
    let message =
      "GitHub sent \(most + 1) repositories on one page, more than a page holds (\(most))"
    #expect(state.list(for: octo).status == .failed(LoadFailure(kind: .server, message: message)))

    var detail = RepositoryDetail()
    detail.commits = (0...most).map { CommitSummary(sha: "\($0)", title: "", author: "", date: "") }
    complete(&state, .repository(owner: "o", name: "r"), .repository(detail))
    #expect(state.detail(owner: "o", name: "r").commits.isEmpty)
    #expect(
      state.detail(owner: "o", name: "r").status.failureMessage?.contains("101 commits") == true)
  }

  @Test func aFailuresMessageBeyondItsBoundIsCut() {
    let message = overlong(.message)
    var state = BrowserState()
    complete(
      &state, .repository(owner: "o", name: "r"),
      .failed(LoadFailure(kind: .server, message: message)))
    complete(
      &state, .repositories(octo, page: 1),
      .failed(LoadFailure(kind: .rateLimited, message: message, retryAt: 60)))
    expectCut(
      state.detail(owner: "o", name: "r").status.failureMessage, from: message, to: .message)
    expectCut(state.list(for: octo).status.failureMessage, from: message, to: .message)
    #expect(state.loads.first?.notBefore == 60_000)
  }

  @Test func anIdentitysTextIsCutAndALoginBeyondItsBoundIsRefused() {
    let (name, message) = (overlong(.personName), overlong(.message))
    var state = BrowserState()
    reduce(&state, .identityResolved(.signedIn(login: "ada", name: name)))
    guard case .signedIn("ada", let kept) = state.identity else {
      Issue.record("the identity is \(state.identity)")
      return
    }
    expectCut(kept, from: name, to: .personName)
    reduce(&state, .identityResolved(.tokenRefused(status: 401, message: message)))
    guard case .tokenRefused(401, let keptMessage) = state.identity else {
      Issue.record("the identity is \(state.identity)")
      return
    }
    expectCut(keptMessage, from: message, to: .message)

    let login = String(repeating: "a", count: NameBound.login.maximumBytes + 1)
    let beyond = IdentityResolved(identity: .signedIn(login: login, name: nil))
    let refusal = validateBrowserAction(beyond, in: state)
    #expect(refusal?.message.hasPrefix("GitHub sent a login of 40 bytes") == true)
    let before = state
    reduce(&state, beyond.browserAction)
    #expect(state == before)
    let long = IdentityResolved(identity: .signedIn(login: "ada", name: name))
    #expect(validateBrowserAction(long, in: state) == nil)
  }

  @Test func namesFromGitHubAreCheckedForLengthOnly() {
    // An enterprise managed user's login has a "_", which a login a client sends may not.
    let managed = Identity.signedIn(login: "jdoe_acme", name: nil)
    #expect(validateBrowserAction(IdentityResolved(identity: managed), in: BrowserState()) == nil)
    var state = BrowserState()
    reduce(&state, .identityResolved(managed))
    #expect(state.identity == managed)
    let summary = RepositorySummary(id: 1, owner: "jdoe_acme", name: "notes")
    let page = RepositoryPage(repositories: [summary])
    complete(&state, .repositories(octo, page: 1), .repositories(page))
    #expect(state.list(for: octo).repositories == [summary])
  }
}

extension LoadStatus {
  /// The message of a failure; `nil` for the other statuses.
  var failureMessage: String? {
    if case .failed(let failure) = self { return failure.message }
    return nil
  }
}
