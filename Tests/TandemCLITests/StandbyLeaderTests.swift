import CommandLineKit
import StatePatch
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

/// `tandem` commands given several leader endpoints: a standby's `REDIRECT` leads the request
/// to the holder it names; a standby that names none, or a silent endpoint, to the next one
/// given, except that an action is never sent on after silence.
@Suite("The control client with standby leaders", .serialized)
struct StandbyLeaderTests {
  /// A standby naming `leader` as the holder of the lease (`remaining` zero: it names none).
  static func standby(
    naming leader: Leader<Shelf>, remaining: Duration = .seconds(60)
  ) async throws -> StandbyResponder {
    let standby = try await StandbyResponder(control: "tcp://127.0.0.1:*")
    standby.redirect(
      to: LeaseRecord(
        holder: "leader-a", control: leader.controlEndpoint, updates: leader.updatesEndpoint,
        fencingEpoch: 3, remaining: remaining))
    return standby
  }

  @Test func aStandbysRedirectIsFollowedToTheActiveLeader() async throws {
    let leader = try await makeShelfLeader()
    let standby = try await Self.standby(naming: leader)
    let client = ControlClient(LeaderConnection(leaders: [standby.controlEndpoint]))
    let (_, sequence) = try await offThePool {
      try client.dispatch(tag: "shelf.add", payload: ["title": "Dune"])
    }
    #expect(sequence == 1)
    let snapshot = try await offThePool { try client.snapshot() }
    #expect(snapshot.state == ["books": ["Dune"], "count": 1])
    let statistics = try await offThePool { try client.statistics() }
    #expect(statistics.counters["actionsApplied"] == 1)
    #expect(standby.requestsAnswered == 3)
    await standby.stop()
    await leader.stop()
  }

  @Test func aStandbyThatNamesNoLeaderSendsTheRequestToTheNextEndpoint() async throws {
    let leader = try await makeShelfLeader()
    let standby = try await Self.standby(naming: leader, remaining: .zero)
    let client = ControlClient(
      LeaderConnection(leaders: [standby.controlEndpoint, leader.controlEndpoint]))
    let (_, sequence) = try await offThePool {
      try client.dispatch(tag: "shelf.add", payload: ["title": "Dune"])
    }
    #expect(sequence == 1)
    #expect(standby.requestsAnswered == 1)
    // Alone, it ends the request; nothing was applied, and the message does not say otherwise.
    let alone = ControlClient(LeaderConnection(leaders: [standby.controlEndpoint]))
    await #expect {
      try await offThePool { try alone.dispatch(tag: "shelf.add", payload: ["title": "Dune"]) }
    } throws: { error in
      (error as? CommandFailure)?.status == .unavailable
        && "\(error)".contains("knows no active leader") && !"\(error)".contains("may have")
    }
    await standby.stop()
    await leader.stop()
  }

  @Test func aSilentEndpointMovesAReadOnButNotAnAction() async throws {
    let leader = try await makeShelfLeader()
    let client = ControlClient(
      LeaderConnection(
        leaders: ["tcp://127.0.0.1:1", leader.controlEndpoint], timeout: .seconds(1)))
    let snapshot = try await offThePool { try client.snapshot() }
    #expect(snapshot.sequence == 0)
    await #expect {
      try await offThePool { try client.dispatch(tag: "shelf.add", payload: ["title": "Dune"]) }
    } throws: { error in
      (error as? CommandFailure)?.status == .unavailable && "\(error)".contains("may have applied")
    }
    #expect(leader.store.state.count == 0)
    await leader.stop()
  }

  @Test func theLeaderOptionTakesSeveralEndpoints() throws {
    let options = try StatsOptions(
      arguments: ["--leader", "tcp://a:5600,tcp://b:5600"], environment: .some(nil))
    #expect(options.connection.leaders == ["tcp://a:5600", "tcp://b:5600"])
    let fromEnvironment = try StatsOptions(arguments: [], environment: .some("ipc:///x,ipc:///y"))
    #expect(fromEnvironment.connection.leaders == ["ipc:///x", "ipc:///y"])
    #expect(throws: UsageError.self) {
      try StatsOptions(arguments: ["--leader", "tcp://a:5600,"], environment: .some(nil))
    }
    #expect(LeaderConnection.help.contains("REDIRECT"))
  }
}
