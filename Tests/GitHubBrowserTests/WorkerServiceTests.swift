import Foundation
import GitHubBrowser
import Tandem
import TandemSync
import Testing

/// Workers as followers of a real leader (in process, over loopback TCP), performing the loads
/// against the fixture API.
@Suite(.timeLimit(.minutes(1))) struct WorkerServiceTests {
  @Test func twoWorkersPerformEveryLoadExactlyOnce() async throws {
    let service = try await ServiceHarness()
    let browser = try await service.follower()
    let followers = [try await service.follower(), try await service.follower()]
    let workers = followers.enumerated().map { index, follower in
      BrowserWorker(
        follower: follower, client: service.client(),
        configuration: .init(workerID: "w\(index + 1)", recheckInterval: .milliseconds(50)))
    }
    let running = workers.map { worker in Task { await worker.run() } }

    for owner in ["octo-org", "ada", "grace"] {
      _ = try await browser.send(
        Navigate(session: owner, route: Route(screen: .repositories(.owner(owner))))
      ).applied()
    }
    _ = try await browser.send(
      RequestLoad(target: .repositories(.owner("octo-org"), page: 2), session: "s")
    )
    .applied()
    _ = try await browser.send(
      Navigate(session: "d", route: Route(screen: .repository(owner: "grace", name: "missing")))
    ).applied()

    let done = await eventually(.seconds(30)) {
      let state = service.leader.store.state!
      return state.loads.isEmpty && state.list(for: .owner("octo-org")).pagesLoaded == 2
    }
    for task in running { task.cancel() }
    for task in running { await task.value }
    #expect(done)
    let (one, two) = (workers[0].performedLoads, workers[1].performedLoads)
    #expect(Set(one).isDisjoint(with: two))
    #expect((one + two).sorted() == [1, 2, 3, 4, 5])
    #expect(service.fixture.requestCount("/users/octo-org/repos") == 2)
    #expect(service.fixture.requestCount("/users/ada/repos") == 1)
    #expect(service.fixture.requestCount("/users/grace/repos") == 1)
    #expect(service.fixture.requestCount("/repos/grace/missing") == 1)
    let state = service.leader.store.state!
    #expect(state.list(for: .owner("octo-org")).repositories.count == 47)
    #expect(state.detail(owner: "grace", name: "missing").status != .loading)
    #expect(state.rateLimit != nil)
    #expect(browser.store.state.identity == .anonymous)
    await service.stop([browser] + followers)
  }

  @Test func aWorkerStoresLongTextCutAndRefusesNamesLongerThanGitHubAllows() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    let client = service.client()
    let repository = try await client.repositories(of: .owner("prolix"), page: 1).items[0]
    let name = repository.name
    let full = try #require(try await client.readme(owner: "prolix", name: name))
    let worker = BrowserWorker(
      follower: follower, client: client,
      configuration: .init(workerID: "w", recheckInterval: .milliseconds(50)))
    let running = Task { await worker.run() }
    _ = try await follower.send(
      Navigate(session: "s", route: Route(screen: .repository(owner: "prolix", name: name)))
    ).applied()
    _ = try await follower.send(
      Navigate(session: "t", route: Route(screen: .repositories(.owner("long-names"))))
    ).applied()
    let loaded = await eventually(.seconds(30)) {
      let state = service.leader.store.state!
      return state.detail(owner: "prolix", name: name).status == .loaded
        && state.list(for: .owner("long-names")).status != .loading
    }
    running.cancel()
    await running.value
    #expect(loaded)
    let state = service.leader.store.state!
    let detail = state.detail(owner: "prolix", name: name)
    expectReadme(of: detail, cutFrom: full)
    expectCut(detail.summary?.description, from: repository.description!, to: .description)
    let message = state.list(for: .owner("long-names")).status.failureMessage
    #expect(message?.hasPrefix("GitHub sent a repository name of 116 bytes") == true)
    await service.stop([follower])
  }

  @Test func deadWorkersClaimIsTakenOverAfterItLapses() async throws {
    let service = try await ServiceHarness()
    let dead = try await service.follower()
    _ = try await dead.send(
      Navigate(session: "s", route: Route(screen: .repositories(.owner("grace"))))
    ).applied()
    let claimedAt = milliseconds()
    let lapse = claimedAt + 1500
    _ = try await dead.send(ClaimLoad(id: 1, workerID: "dead", now: claimedAt, expiresAt: lapse))
      .applied()
    #expect(dead.store.state.load(1)?.isClaimed(by: "dead", at: claimedAt) == true)
    await dead.stop()  // dies holding the claim

    let follower = try await service.follower()
    let worker = BrowserWorker(
      follower: follower, client: service.client(),
      configuration: .init(workerID: "alive", recheckInterval: .milliseconds(50)))
    let running = Task { await worker.run() }
    let tookOver = await eventually(.seconds(10)) { !worker.performedLoads.isEmpty }
    let performedAt = milliseconds()
    let completed = await eventually(.seconds(10)) {
      service.leader.store.state.list(for: .owner("grace")).status == .loaded
    }
    running.cancel()
    await running.value
    #expect(tookOver && completed)
    #expect(performedAt >= lapse)
    #expect(worker.performedLoads == [1])
    #expect(service.leader.store.state.list(for: .owner("grace")).repositories.count == 3)
    #expect(service.fixture.requestCount("/users/grace/repos") == 1)
    await service.stop([follower])
  }

  @Test func refusedTokenIsReportedAndNotRetried() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    let worker = BrowserWorker(
      follower: follower, client: service.client(token: FixtureAPI.refusedToken),
      configuration: .init(workerID: "w", recheckInterval: .milliseconds(50)))
    let running = Task { await worker.run() }
    let refused = Identity.tokenRefused(status: 401, message: "Bad credentials")
    let reported = await eventually(.seconds(10)) {
      service.leader.store.state.identity == refused
    }
    running.cancel()
    await running.value
    #expect(reported)
    #expect(service.fixture.requestCount("/user") == 1)
    await service.stop([follower])
  }
}
