import Foundation
import Testing

@testable import GitHubBrowser

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ClientTests {
  func makeFixture(slowDelay: Duration = .seconds(5), flakyFailures: Int = 2) throws -> FixtureAPI {
    try FixtureAPI(
      configuration: .init(slowDelay: slowDelay, flakyFailures: flakyFailures))
  }

  /// A client of `fixture`. The default request timeout is a deadline far beyond what a loaded
  /// machine needs (the fixture's handlers wait for the busy cooperative pool): a request that
  /// timed out would be retried and break the request counts the tests check.
  func makeClient(
    _ fixture: FixtureAPI, token: String? = nil, timeout: TimeInterval = 60,
    retries: Int = 2, perPage: Int = 30
  ) -> GitHubClient {
    GitHubClient(
      configuration: .init(
        baseURL: fixture.url, token: token, timeout: timeout, maximumRetries: retries,
        retryDelay: .milliseconds(10), perPage: perPage))
  }

  @Test func followsLinkPaginationAcrossEveryPage() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture, perPage: 10)
    var names: [String] = []
    var page: Int? = 1
    var pages: [GitHubPage<GitHubRepository>] = []
    while let number = page {
      let result = try await client.repositories(of: .owner("octo-org"), page: number)
      pages.append(result)
      names += result.items.map(\.name)
      page = result.nextPage
    }
    #expect(pages.count == 5)
    #expect(pages.first?.nextPage == 2)
    #expect(pages.first?.lastPage == 5)
    #expect(pages.last?.items.count == 7)
    #expect(pages.last?.lastPage == nil)
    #expect(names.count == 47)
    #expect(Set(names).count == 47)
    #expect(pages[0].rateLimit?.limit == 60)
  }

  @Test func signedInUserSeesPrivateRepositories() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture, token: "fixture-token")
    let user = try await client.authenticatedUser()
    #expect(user.login == "ada")
    let own = try await client.repositories(of: .signedInUser, page: 1)
    #expect(own.items.count == 12)
    #expect(own.items.contains { $0.isPrivate })
    let publicView = try await makeClient(fixture).repositories(of: .owner("ada"), page: 1)
    #expect(publicView.items.count == 11)
  }

  @Test func anonymousUserIsUnauthorized() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    await #expect(throws: GitHubError.unauthorized(status: 401, message: "Requires authentication"))
    {
      try await makeClient(fixture).authenticatedUser()
    }
  }

  @Test func reusesTheCachedBodyOn304() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture, perPage: 10)
    let first = try await client.repositories(of: .owner("grace"), page: 1)
    let second = try await client.repositories(of: .owner("grace"), page: 1)
    #expect(first.fromCache == false)
    #expect(second.fromCache)
    #expect(second.items == first.items)
    #expect(client.cacheHits == 1)
    #expect(fixture.requestCount("/users/grace/repos") == 2)
  }

  @Test func cachedLinkHeaderSurvivesA304() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture, perPage: 10)
    _ = try await client.repositories(of: .owner("octo-org"), page: 2)
    let again = try await client.repositories(of: .owner("octo-org"), page: 2)
    #expect(again.fromCache)
    #expect(again.nextPage == 3)
    #expect(again.lastPage == 5)
  }

  @Test func primaryRateLimitIsATypedErrorWithTheReset() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    // The fixture stamps the reset a minute after it answers, which on a loaded machine can be
    // many seconds after the call began: the window is measured around the whole call.
    let before = Int64(Date().timeIntervalSince1970)
    do {
      _ = try await makeClient(fixture).repositories(of: .owner("rate-limited"), page: 1)
      Issue.record("expected a rate limit")
    } catch {
      let after = Int64(Date().timeIntervalSince1970)
      guard case .rateLimited(let rejection) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(rejection.status == 403)
      #expect(rejection.message == "API rate limit exceeded for 127.0.0.1.")
      let reset = try #require(rejection.resetAt)
      #expect((before + 60...after + 60).contains(reset))
      #expect(rejection.retryAt == reset)
      #expect(error.loadFailure.kind == .rateLimited)
      #expect(error.loadFailure.retryAt == reset)
    }
    #expect(fixture.requestCount("/users/rate-limited/repos") == 1, "4xx is never retried")
  }

  @Test func rateLimitIsRespectedUntilItsRetryTime() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    _ = try await client.repositories(of: .owner("grace"), page: 1)
    #expect(client.rateLimit?.limit == 60)
    await #expect(throws: GitHubError.self) {
      try await client.repositories(of: .owner("rate-limited"), page: 1)
    }
    #expect(client.rateLimit?.remaining == 0)
    do {
      _ = try await client.repositories(of: .owner("grace"), page: 1)
      Issue.record("expected the client to refuse while rate limited")
    } catch {
      guard case .rateLimited(let rejection) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(rejection.status == 403)
    }
    #expect(fixture.requestCount("/users/grace/repos") == 1, "the refused request was not sent")
    #expect(client.requestsSent == 2)
  }

  @Test func secondaryRateLimitCarriesRetryAfter() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    do {
      _ = try await makeClient(fixture).repositories(of: .owner("throttled"), page: 1)
      Issue.record("expected a rate limit")
    } catch {
      guard case .rateLimited(let rejection) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(rejection.status == 429)
      #expect(rejection.retryAfter == 30)
      #expect(rejection.retryAt >= rejection.receivedAt + 30)
    }
    #expect(fixture.requestCount("/users/throttled/repos") == 1)
  }

  @Test func aRetryAfterTooLongToAddToTheClockSaturates() {
    let rejection = RateLimitRejection(
      status: 429, message: "slow down", resetAt: nil, retryAfter: .max, receivedAt: 1_700_000_000)
    #expect(rejection.retryAt == .max)
  }

  @Test func serverErrorsAreRetriedUntilTheySucceed() async throws {
    let fixture = try makeFixture(flakyFailures: 2)
    defer { fixture.stop() }
    let client = makeClient(fixture, retries: 2)
    let page = try await client.repositories(of: .owner("flaky"), page: 1)
    #expect(page.items.count == 1)
    #expect(fixture.requestCount("/users/flaky/repos") == 3)
    #expect(client.requestsSent == 3)
  }

  @Test func serverErrorsSurfaceWhenRetriesRunOut() async throws {
    let fixture = try makeFixture(flakyFailures: 5)
    defer { fixture.stop() }
    await #expect(
      throws: GitHubError.httpStatus(502, path: "/users/flaky/repos", message: "Server Error")
    ) {
      try await makeClient(fixture, retries: 1).repositories(of: .owner("flaky"), page: 1)
    }
    #expect(fixture.requestCount("/users/flaky/repos") == 2)
  }

  @Test func connectionFailureIsANetworkErrorAfterRetries() async throws {
    let closed = try ClosedPort()
    let client = GitHubClient(
      configuration: .init(
        baseURL: closed.url, timeout: 60, maximumRetries: 2, retryDelay: .milliseconds(10)))
    do {
      _ = try await client.repository(owner: "ada", name: "x")
      Issue.record("expected a network error")
    } catch {
      guard case .network(let path, let cause) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == "/repos/ada/x")
      #expect(cause.code == .cannotConnectToHost)
      #expect(error.loadFailure.kind == .network)
    }
    #expect(client.requestsSent == 3)
    withExtendedLifetime(closed) {}
  }

  @Test func otherClientErrorsAreNotRetried() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    await #expect(
      throws: GitHubError.httpStatus(
        422, path: "/users/ada/repos", message: "Invalid value for page")
    ) {
      try await client.repositories(of: .owner("ada"), page: 0)
    }
    #expect(client.requestsSent == 1)
  }

  @Test func notFoundIsNotRetried() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    await #expect(throws: GitHubError.notFound(path: "/repos/nobody/nothing")) {
      try await makeClient(fixture).repository(owner: "nobody", name: "nothing")
    }
    #expect(fixture.requestCount("/repos/nobody/nothing") == 1)
  }

  @Test func slowAnswerTimesOutAfterRetries() async throws {
    let fixture = try makeFixture(slowDelay: .seconds(20))
    defer { fixture.stop() }
    let client = makeClient(fixture, timeout: 1, retries: 1)
    await #expect(throws: GitHubError.timedOut(path: "/users/slowpoke/repos")) {
      try await client.repositories(of: .owner("slowpoke"), page: 1)
    }
    #expect(client.requestsSent == 2)
    // The server counts a request when its handler task starts, which may lag on a busy machine.
    #expect(await eventually { fixture.requestCount("/users/slowpoke/repos") == 2 })
  }

  @Test func readsReadmeAsBase64JSONOrRaw() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let name = try await client.repositories(of: .owner("grace"), page: 1).items[0].name
    let decoded = try await client.readme(owner: "grace", name: name)
    let raw = try await client.readme(owner: "grace", name: name, raw: true)
    #expect(decoded?.hasPrefix("# \(name)\n") == true)
    #expect(decoded == raw)
  }

  @Test func missingReadmeIsNil() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    // Every fifth fixture repository has no README.
    let name = try await client.repositories(of: .owner("octo-org"), page: 1).items[4].name
    #expect(try await client.readme(owner: "octo-org", name: name) == nil)
  }

  @Test func aLoadedDetailsLongReadmeIsCutAsTheStateKeepsIt() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let name = try await client.repositories(of: .owner("prolix"), page: 1).items[0].name
    let full = try #require(try await client.readme(owner: "prolix", name: name))
    let result = await client.perform(.repository(owner: "prolix", name: name))
    guard case .repository(let detail)? = result?.outcome else {
      Issue.record("the load gave \(String(describing: result))")
      return
    }
    expectReadme(of: detail, cutFrom: full)
  }

  @Test func loadsRepositoryDetail() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let repository = try await client.repositories(of: .owner("ada"), page: 1).items[2]
    let detail = try await client.repositoryDetail(owner: "ada", name: repository.name)
    #expect(detail.summary == repository.summary)
    #expect(detail.readme != nil)
    #expect(detail.branches.map(\.name) == ["main", "develop", "release/1.2"])
    #expect(detail.branches.first?.isProtected == true)
    #expect(detail.commits.count == 10)
    #expect(detail.commits.allSatisfy { !$0.title.contains("\n") && $0.sha.count == 40 })
    #expect(detail.status == .loaded)
  }

  @Test func emptyRepositoryDetailLoadsWithNoCommits() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let repository = try #require(
      try await client.repositories(of: .owner("newcomer"), page: 1).items.first)
    let detail = try await client.repositoryDetail(owner: "newcomer", name: repository.name)
    #expect(detail.summary == repository.summary)
    #expect(detail.readme == nil)
    #expect(detail.branches.isEmpty)
    #expect(detail.commits.isEmpty)
    #expect(detail.status == .loaded)
    #expect(fixture.requestCount("/repos/newcomer/\(repository.name)/commits") == 1)
  }

  @Test func configurationDescriptionHidesTheToken() {
    let configuration = GitHubClient.Configuration(token: "ghp_secret")
    #expect(!configuration.description.contains("ghp_secret"))
    #expect(configuration.description.contains("<hidden>"))
  }

  @Test func parsesLinkHeaders() {
    let header =
      "<https://api.github.com/user/repos?page=3&per_page=10>; rel=\"next\", "
      + "<https://api.github.com/user/repos?page=50&per_page=10>; rel=\"last\", "
      + "<https://api.github.com/user/repos?page=1>; rel=\"first prev\""
    #expect(LinkHeader.pages(header) == ["next": 3, "last": 50, "first": 1, "prev": 1])
    #expect(LinkHeader.pages("garbage").isEmpty)
  }
}
