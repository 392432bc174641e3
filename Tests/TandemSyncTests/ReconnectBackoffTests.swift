import Testing

@testable import TandemSync

@Suite("A follower whose leader is away reconnects with back-off", .serialized)
struct ReconnectBackoffTests {
  @Test(.timeLimit(.minutes(1)))
  func reconnectsDuringAnOutageFollowTheBackOffAndTheFollowerRejoins() async throws {
    let leader = try await makeLeader()
    let (control, updates) = (leader.controlEndpoint, leader.updatesEndpoint)
    let follower = try await makeFollower(leader) {
      $0.silenceLimit = .milliseconds(400)
      $0.reconnectDelay = .milliseconds(100)
      $0.maximumReconnectDelay = .seconds(2)
    }
    _ = try await follower.send(Increment()).applied()
    let before = try await follower.statistics().reconnects
    await leader.stop()
    // The leader's BYE makes the first reconnect; each later one waits out the silence limit
    // after a back-off of 0.1, 0.2, 0.4 and 0.8 s: five take about 3.5 s. (Ticks that each
    // scheduled one more reconnect made them about every 0.25 s, and left a socket open for
    // each.)
    let clock = ContinuousClock()
    let start = clock.now
    await eventually("the follower reconnected five times", timeout: .seconds(30)) {
      (try? await follower.statistics().reconnects) ?? 0 >= before + 5
    }
    #expect(clock.now - start >= .milliseconds(2500))
    let restarted = try await makeLeader {
      $0.control = control
      $0.updates = updates
    }
    let applied = await eventually("the follower rejoined", timeout: .seconds(20)) {
      (try? await follower.statistics().epoch) == restarted.epoch.description
    }
    if applied { _ = try await follower.send(Increment()).applied() }
    #expect(restarted.store.state.counter == 1)
    await follower.stop()
    await restarted.stop()
  }
}
