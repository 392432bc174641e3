import PostgresTestSupport
import Tandem
import TandemJournal
import TandemProtocol
import Testing

@testable import TandemSync

/// Standby leaders over real sockets on one PostgreSQL journal (the tests' private cluster):
/// one serves, the other redirects; a hand-over moves the service without losing or repeating
/// an action, and followers given both endpoints follow whichever serves.
@Suite("Standby leaders on a shared journal", .serialized)
struct StandbyLeaderHandOverTests {
  static let lease = Duration.milliseconds(1500)

  func makeStandby(
    _ database: String, name: String, keys: KeyFixture? = nil
  ) async throws -> StandbyLeader<TestState> {
    var configuration = LeaderConfiguration()
    configuration.heartbeatInterval = .milliseconds(100)
    configuration.journalLocation = .postgres(connection: database)
    configuration.security = keys?.leaderSecurity
    var standby = StandbyConfiguration(leaseLength: Self.lease)
    standby.leaderID = name
    return try await StandbyLeader(
      store: Store<TestState>(reducer: testReducer, state: TestState()), registry: testRegistry,
      configuration: configuration, standby: standby)
  }

  /// Two standby leaders on a new database: `a` serving, `b` watching its lease.
  func makePair(
    keys: KeyFixture? = nil
  ) async throws -> (StandbyLeader<TestState>, StandbyLeader<TestState>) {
    let database = try PostgresTestCluster.database()
    let a = try await makeStandby(database, name: "a", keys: keys)
    await eventually("a serves") { a.status().role == "active" && a.leader != nil }
    let b = try await makeStandby(database, name: "b", keys: keys)
    await eventually("b watches a's lease") { b.status().lease?.holder == "a" }
    return (a, b)
  }

  func makeFollower(
    of leaders: [StandbyLeader<TestState>], client: String
  ) async throws -> Follower<TestState> {
    var configuration = FollowerConfiguration(leaders: leaders.map(\.controlEndpoint))
    configuration.clientID = client
    configuration.silenceLimit = .milliseconds(500)
    configuration.reconnectDelay = .milliseconds(20)
    return try await Follower<TestState>(configuration: configuration, registry: testRegistry)
  }

  @Test(.timeLimit(.minutes(1)))
  func oneServesAndAFollowerGivenTheStandbyFirstFindsIt() async throws {
    let (a, b) = try await makePair()
    #expect(b.status().role == "standby" && b.leader == nil)
    let follower = try await makeFollower(of: [b, a], client: "reader")
    #expect(try await follower.send(Increment()).applied() == 1)
    #expect(a.store.state?.counter == 1)
    let statistics = try await a.leader!.statistics()
    #expect(statistics.lease?.holder == "a" && statistics.lease?.role == "active")
    await follower.stop()
    await b.stop()
    await a.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aHandOverUnderLoadLosesAndRepeatsNothing() async throws {
    let (a, b) = try await makePair()
    let follower = try await makeFollower(of: [a, b], client: "writer")
    let total = 400
    var sequences: [UInt64] = []
    var pending: [Receipt] = []
    for value in 0..<total {
      pending.append(try follower.send(Record(client: "writer", value: value)))
      if value == total / 4 { a.stepDown() }
      if pending.count >= 16 { sequences.append(try await pending.removeFirst().applied()) }
    }
    for receipt in pending { sequences.append(try await receipt.applied()) }
    await eventually("b serves") { b.leader != nil }
    let state = try #require(b.leader?.store.state)
    // Every action applied once, in the order sent, and each receipt names its own sequence.
    #expect(state.log["writer"] == Array(0..<total))
    #expect(Set(sequences).count == total)
    #expect(b.status().lease?.fencingEpoch == 2)
    await eventually("a redirects to b") { a.status().role == "standby" }
    #expect(a.leader == nil)
    await eventually("the follower's replica shows it all") {
      follower.store.state.log["writer"]?.count == total
    }
    await follower.stop()
    await a.stop()
    await b.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func stoppingTheActiveLeaderHandsOverAtOnce() async throws {
    let (a, b) = try await makePair()
    let follower = try await makeFollower(of: [a, b], client: "writer")
    #expect(try await follower.send(Increment()).applied() == 1)
    let stopping = ContinuousClock.now
    await a.stop()
    // Released, not left to run out: b takes it well within one lease.
    await eventually("b serves", timeout: Self.lease) { b.leader != nil }
    #expect(ContinuousClock.now - stopping < Self.lease * 2)
    #expect(try await follower.send(Increment()).applied() == 2)
    #expect(b.store.state?.counter == 2)
    await follower.stop()
    await b.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func withKeysAStandbyRedirectsAuthorizedFollowersAndReloadsItsStore() async throws {
    let keys = try KeyFixture()
    try keys.key("early")
    let (a, b) = try await makePair(keys: keys)
    // A key added after both started: b's responder refuses it until it reloads its store
    // (as SIGHUP has the standby command do).
    try keys.key("late")
    func join(_ name: String, _ leaders: [StandbyLeader<TestState>]) async throws {
      var configuration = FollowerConfiguration(leaders: leaders.map(\.controlEndpoint))
      configuration.clientID = name
      configuration.security = keys.follower(name)
      configuration.reconnectDelay = .milliseconds(20)
      configuration.joinTimeout = .seconds(5)
      let follower = try await Follower<TestState>(
        configuration: configuration, registry: testRegistry)
      _ = try await follower.send(Increment()).applied()
      await follower.stop()
    }
    await #expect {
      try await join("late", [b])
    } throws: { error in
      guard case .authenticationFailed = error as? FollowerError else { return false }
      return true
    }
    #expect(try await b.reloadKeys().count == 2)
    #expect(try await a.reloadKeys().count == 2)
    for name in ["early", "late"] {
      try await join(name, [b, a])
    }
    #expect(a.store.state?.counter == 2)
    // A follower without an authorized key learns nothing from the standby either.
    try keys.key("stranger", authorized: false)
    var configuration = FollowerConfiguration(leaders: [b.controlEndpoint])
    configuration.security = keys.follower("stranger")
    configuration.joinTimeout = .seconds(5)
    await #expect {
      _ = try await Follower<TestState>(configuration: configuration, registry: testRegistry)
    } throws: { error in
      guard case .authenticationFailed = error as? FollowerError else { return false }
      return true
    }
    await b.stop()
    await a.stop()
  }

  @Test func aStandbyWithoutAPostgreSQLJournalIsRefused() async throws {
    var configuration = LeaderConfiguration()
    configuration.journalPath = "/tmp/never-opened.sqlite"
    await #expect(
      throws: LeaderError.standbyNeedsSharedJournal(location: "/tmp/never-opened.sqlite")
    ) {
      _ = try await StandbyLeader(
        store: Store<TestState>(reducer: testReducer, state: TestState()),
        registry: testRegistry, configuration: configuration)
    }
  }
}
