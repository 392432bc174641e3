import Foundation
import GitHubBrowser
import Synchronization
import Testing

/// Workers sharing one state through a single ordered reducer (the leader's role, in process)
/// and performing loads against the fixture API.
@Suite struct WorkerLoopTests {
  /// Applies actions one at a time, in one order, as a leader does.
  final class Leader: Sendable {
    private let state = Mutex(BrowserState())
    func dispatch(_ action: BrowserAction) {
      state.withLock { browserReducer(&$0, action) }
    }
    var current: BrowserState { state.withLock { $0 } }
  }

  static func milliseconds() -> Int64 {
    Int64(Date().timeIntervalSince1970 * 1000)
  }

  /// Claims and performs loads until none is left (or 120 s pass); returns the loads it
  /// performed. While every pending load is claimed by the other worker it checks again
  /// every few milliseconds (a real worker would wait for its replica's next state). Claims
  /// last 300 s: expiry is for a dead worker, which this test has none of, and a loaded
  /// machine must not let a slow load's claim expire and be taken over.
  static func work(_ id: String, leader: Leader, client: GitHubClient) async -> [Int] {
    var performed: [Int] = []
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      let now = milliseconds()
      let state = leader.current
      if state.loads.isEmpty { return performed }
      guard let load = state.claimableLoads(at: now).first else {
        try? await Task.sleep(for: .milliseconds(2))
        continue
      }
      leader.dispatch(.claimLoad(id: load.id, workerID: id, now: now, expiresAt: now + 300_000))
      guard leader.current.load(load.id)?.isClaimed(by: id, at: now) == true else { continue }
      performed.append(load.id)
      guard let result = await client.perform(load.target) else {
        leader.dispatch(.releaseLoad(id: load.id, workerID: id))
        continue
      }
      leader.dispatch(.completeLoad(id: load.id, workerID: id, result: result))
    }
    return performed
  }

  @Test func twoWorkersPerformEveryLoadOnce() async throws {
    let fixture = try FixtureAPI()
    defer { fixture.stop() }
    let leader = Leader()
    let owners = ["octo-org", "ada", "grace"]
    for owner in owners {
      leader.dispatch(
        .navigate(session: owner, route: Route(screen: .repositories(.owner(owner)))))
    }
    leader.dispatch(.requestLoad(.repositories(.owner("octo-org"), page: 2), session: "s"))
    leader.dispatch(.requestLoad(.repository(owner: "grace", name: "nothing-here"), session: "s"))
    // A timeout far beyond what a loaded machine needs: a timed-out request would be retried
    // and break the request counts checked below.
    let configuration = GitHubClient.Configuration(
      baseURL: fixture.url, timeout: 60, retryDelay: .zero)
    async let first = Self.work(
      "w1", leader: leader, client: GitHubClient(configuration: configuration))
    async let second = Self.work(
      "w2", leader: leader, client: GitHubClient(configuration: configuration))
    let (one, two) = await (first, second)

    #expect(leader.current.loads.isEmpty)
    #expect(Set(one).isDisjoint(with: two))
    #expect((one + two).sorted() == [1, 2, 3, 4, 5])
    for owner in owners {
      #expect(fixture.requestCount("/users/\(owner)/repos") == (owner == "octo-org" ? 2 : 1))
    }
    let state = leader.current
    #expect(state.list(for: .owner("octo-org")).repositories.count == 47)
    #expect(state.list(for: .owner("octo-org")).nextPage == nil)
    #expect(state.list(for: .owner("ada")).repositories.count == 11)
    #expect(
      state.detail(owner: "grace", name: "nothing-here").status
        == .failed(
          LoadFailure(
            kind: .notFound, message: "not found: /repos/grace/nothing-here", status: 404)))
    #expect(state.rateLimit?.limit == 60)
  }

  @Test func cancelledLoadIsNotReportedAsDone() async throws {
    // The answer (and the client's timeout) must stay far beyond the time a loaded machine
    // takes to get the request to the fixture, so that the load is still in flight when it is
    // cancelled; stopping the fixture cancels the sleeping handler.
    let fixture = try FixtureAPI(configuration: .init(slowDelay: .seconds(300)))
    defer { fixture.stop() }
    let client = GitHubClient(configuration: .init(baseURL: fixture.url, timeout: 300))
    let task = Task { await client.perform(.repositories(.owner("slowpoke"), page: 1)) }
    #expect(await eventually { fixture.requestCount("/users/slowpoke/repos") == 1 })
    task.cancel()
    #expect(await task.value == nil)
  }

  @Test func identityComesFromTheTokenWithoutStoringIt() async throws {
    let fixture = try FixtureAPI()
    defer { fixture.stop() }
    let signedIn = GitHubClient(configuration: .init(baseURL: fixture.url, token: "secret-token"))
    let anonymous = GitHubClient(configuration: .init(baseURL: fixture.url))
    var state = BrowserState()
    browserReducer(&state, .identityResolved(try await signedIn.resolveIdentity()))
    #expect(state.identity == .signedIn(login: "ada", name: "Ada Lovelace"))
    let encoded = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
    #expect(!encoded.contains("secret-token"))
    #expect(try await anonymous.resolveIdentity() == .anonymous)
  }
}
