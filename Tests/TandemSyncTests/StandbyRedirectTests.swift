import TandemProtocol
import Testing

@testable import TandemSync

/// Followers of several leaders over real sockets: a standby's `REDIRECT` leads a follower to
/// the lease holder, and a silent endpoint makes it try the next one given.
@Suite("Followers of standby leaders", .serialized)
struct StandbyRedirectTests {
  @Test(.timeLimit(.minutes(1)))
  func aFollowerGivenAStandbyJoinsTheHolderItNames() async throws {
    let leader = try await makeLeader()
    let standby = try await StandbyResponder(control: "tcp://127.0.0.1:*")
    standby.redirect(
      to: LeaseRecord(
        holder: "leader-a", control: leader.controlEndpoint, updates: leader.updatesEndpoint,
        fencingEpoch: 3, remaining: .seconds(60)))
    var configuration = FollowerConfiguration(leader: standby.controlEndpoint)
    configuration.reconnectDelay = .milliseconds(20)
    let follower = try await Follower<TestState>(
      configuration: configuration, registry: testRegistry)
    let sequence = try await follower.send(Increment()).applied()
    #expect(sequence == 1)
    #expect(leader.store.state?.counter == 1)
    #expect(standby.requestsAnswered >= 1)
    await follower.stop()
    await standby.stop()
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aStandbyThatKnowsNoHolderSendsTheFollowerToTheNextEndpoint() async throws {
    let leader = try await makeLeader()
    let standby = try await StandbyResponder(control: "tcp://127.0.0.1:*")
    // A lease that ran out names nobody.
    standby.redirect(
      to: LeaseRecord(
        holder: "gone", control: "tcp://127.0.0.1:9", updates: "tcp://127.0.0.1:9",
        fencingEpoch: 2, remaining: .zero))
    var configuration = FollowerConfiguration(leader: standby.controlEndpoint)
    configuration.standbyLeaders = [leader.controlEndpoint]
    configuration.reconnectDelay = .milliseconds(20)
    let follower = try await Follower<TestState>(
      configuration: configuration, registry: testRegistry)
    #expect(try await follower.send(Increment()).applied() == 1)
    await follower.stop()
    await standby.stop()
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aFollowerWhoseFirstLeaderIsSilentTriesTheNext() async throws {
    let directory = try LeaderDirectory()
    let leader = try await makeLeader()
    // Nothing listens at the first endpoint: the join stalls and the follower moves on.
    var configuration = FollowerConfiguration(leader: "ipc://\(directory.path)/nobody")
    configuration.standbyLeaders = [leader.controlEndpoint]
    configuration.silenceLimit = .milliseconds(400)
    configuration.reconnectDelay = .milliseconds(20)
    let follower = try await Follower<TestState>(
      configuration: configuration, registry: testRegistry)
    #expect(try await follower.send(Increment()).applied() == 1)
    #expect(try await follower.statistics().reconnects >= 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func anInvalidStandbyEndpointIsRefused() async {
    var configuration = FollowerConfiguration(leader: "tcp://127.0.0.1:1")
    configuration.standbyLeaders = ["not an endpoint"]
    await #expect(throws: FollowerError.invalidEndpoint("not an endpoint")) {
      try await Follower<TestState>(configuration: configuration, registry: testRegistry)
    }
  }
}

@Suite("Leader endpoints on the command line")
struct LeaderEndpointListTests {
  @Test func aCommaSeparatedListGivesTheLeaderThenItsStandbys() {
    let endpoints = FollowerConfiguration.endpoints("tcp://a:1, tcp://b:1,,")
    #expect(endpoints == ["tcp://a:1", "tcp://b:1"])
    let configuration = FollowerConfiguration(leaders: endpoints, clientID: "c")
    #expect(configuration.leader == "tcp://a:1")
    #expect(configuration.standbyLeaders == ["tcp://b:1"])
    #expect(configuration.leaderEndpoints == endpoints)
    #expect(FollowerConfiguration.endpoints("tcp://a:1") == ["tcp://a:1"])
    #expect(FollowerConfiguration.endpoints(" , ").isEmpty)
  }
}
