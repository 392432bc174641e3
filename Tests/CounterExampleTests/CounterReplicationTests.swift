import CounterExample
import Tandem
import TandemSync
import Testing

@Suite("The counter across a leader and followers, in process", .serialized)
struct CounterReplicationTests {
  func makeLeader() async throws -> Leader<CounterState> {
    var configuration = LeaderConfiguration()
    configuration.heartbeatInterval = .milliseconds(100)
    return try await Leader(
      store: Store<CounterState>(reducer: counterReducer, state: CounterState()),
      registry: counterRegistry, configuration: configuration)
  }

  func makeFollower(_ leader: Leader<CounterState>) async throws -> Follower<CounterState> {
    try await Follower<CounterState>(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint),
      registry: counterRegistry)
  }

  @Test func threeFollowersLoadingAtOnceConvergeWithReadYourWrites() async throws {
    let leader = try await makeLeader()
    var followers: [Follower<CounterState>] = []
    for _ in 0..<3 { followers.append(try await makeFollower(leader)) }
    let load = CounterLoad(increments: 300, notes: 5, noteBytes: 2048, window: 32)
    let reports = await withTaskGroup(of: CounterLoadReport.self) { group in
      for follower in followers { group.addTask { await load.run(on: follower) } }
      var reports: [CounterLoadReport] = []
      for await report in group { reports.append(report) }
      return reports
    }
    for report in reports {
      #expect(report.sent == 305)
      #expect(report.acknowledged == 305)
      #expect(report.violations == 0)
      #expect(report.rejected + report.failed == 0)
    }
    let final = leader.store.state!
    #expect(final.counter == 900)
    #expect(final.note.utf8.count == 2048)
    #expect(Set(final.actionsByClient.values) == [305])
    for follower in followers {
      let deadline = ContinuousClock.now + .seconds(10)
      while follower.store.state != final, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(follower.store.state == final)
      await follower.stop()
    }
    await leader.stop()
  }

  @Test func aLoadAfterAnotherCountsOnlyItsOwnActions() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    let first = await CounterLoad(increments: 10, window: 1).run(on: follower)
    let second = await CounterLoad(increments: 10, window: 4).run(on: follower)
    #expect(first.violations == 0 && second.violations == 0)
    #expect(second.lastSequence == 20)
    #expect(follower.store.state.actionsByClient[follower.clientID] == 20)
    await follower.stop()
    await leader.stop()
  }

  @Test func aStoppedFollowerFailsItsLoadInsteadOfHanging() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    await follower.stop()
    let report = await CounterLoad(increments: 5).run(on: follower)
    #expect(report.acknowledged == 0)
    // The first refused send says the follower stopped; the rest are not tried.
    #expect(report.failed == 1)
    #expect(report.unsent == 4)
    await leader.stop()
  }
}
