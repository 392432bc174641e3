import PostgresTestSupport
import Synchronization
import Tandem
import TandemJournal
import TandemProtocol
import Testing

@testable import TandemSync

/// An active leader cut off from the shared journal's database but not from its followers: its
/// connections to PostgreSQL go through a relay of the test's, which the test stops (or holds).
/// The leader must stop acknowledging before its lease runs out, the standby (which reaches the
/// database directly) takes over, and no action is acknowledged by both or applied twice.
@Suite("A standby leader cut off from its database", .serialized)
struct StandbyLeaderCutOffTests {
  static let lease = Duration.milliseconds(1500)

  /// What the follower's load saw: each acknowledged action's value and sequence, in order.
  final class Load: Sendable {
    let acknowledged = Mutex<[(value: Int, sequence: UInt64)]>([])
    let failures = Mutex<[String]>([])
    let stop = Atomic(false)
    var count: Int { acknowledged.withLock { $0.count } }
  }

  func makeStandby(_ connection: String, name: String) async throws -> StandbyLeader<TestState> {
    var configuration = LeaderConfiguration()
    configuration.heartbeatInterval = .milliseconds(100)
    configuration.journalLocation = .postgres(connection: connection)
    var standby = StandbyConfiguration(leaseLength: Self.lease)
    standby.leaderID = name
    return try await StandbyLeader(
      store: Store<TestState>(reducer: testReducer, state: TestState()), registry: testRegistry,
      configuration: configuration, standby: standby)
  }

  /// Sends `Record`s of `client` one after another (a window of 8) until told to stop.
  func runLoad(_ follower: Follower<TestState>, into load: Load) async {
    var pending: [(Int, Receipt)] = []
    var value = 0
    while !load.stop.load(ordering: .relaxed) || !pending.isEmpty {
      if !load.stop.load(ordering: .relaxed), pending.count < 8 {
        do {
          pending.append((value, try follower.send(Record(client: "writer", value: value))))
          value += 1
        } catch {
          load.failures.withLock { $0.append("send: \(error)") }
          return
        }
        continue
      }
      let (sent, receipt) = pending.removeFirst()
      do {
        let sequence = try await receipt.applied()
        load.acknowledged.withLock { $0.append((sent, sequence)) }
      } catch {
        load.failures.withLock { $0.append("\(sent): \(error)") }
      }
    }
  }

  @Test(.timeLimit(.minutes(1)), arguments: [false, true])
  func theCutOffLeaderStopsAcknowledgingBeforeTheStandbyTakesOver(holding: Bool) async throws {
    let address = try PostgresTestCluster.address()
    let direct = try PostgresTestCluster.database()
    let database = direct.split(separator: " ").first { $0.hasPrefix("dbname=") }!
    let relay = try TCPRelay()
    relay.start(unixSocket: "\(address.directory)/.s.PGSQL.\(address.port)")
    let a = try await makeStandby(
      "host=127.0.0.1 port=\(relay.port) user=tandem \(database)", name: "a")
    await eventually("a serves") { a.leader != nil }
    let b = try await makeStandby(direct, name: "b")
    await eventually("b watches a's lease") { b.status().lease?.holder == "a" }

    var configuration = FollowerConfiguration(leaders: [a.controlEndpoint, b.controlEndpoint])
    configuration.clientID = "writer"
    configuration.silenceLimit = .milliseconds(500)
    configuration.reconnectDelay = .milliseconds(20)
    let follower = try await Follower<TestState>(
      configuration: configuration, registry: testRegistry)
    let load = Load()
    let sending = Task { await runLoad(follower, into: load) }
    await eventually("the load runs on a") { load.count >= 200 }

    // Cut a off from the database: closed (its calls fail at once) or held (they hang).
    if holding { relay.hold() } else { relay.stop() }
    let cut = ContinuousClock.now
    var aStopped: ContinuousClock.Instant?
    var bServes: ContinuousClock.Instant?
    while bServes == nil, ContinuousClock.now - cut < .seconds(20) {
      if aStopped == nil, !a.acknowledges { aStopped = .now }
      if b.leader != nil, b.acknowledges { bServes = .now }
      try await Task.sleep(for: .milliseconds(2))
    }
    let stopped = try #require(aStopped, "a kept acknowledging")
    let served = try #require(bServes, "b never took over")
    // a stopped acknowledging before its lease ran out, which is before b could take it.
    #expect(stopped < served)
    #expect(stopped - cut < Self.lease)
    #expect(b.status().lease?.fencingEpoch == 2)

    let before = load.count
    await eventually("the load goes on under b") { load.count >= before + 200 }
    load.stop.store(true, ordering: .relaxed)
    await sending.value
    #expect(load.failures.withLock { $0 }.isEmpty)
    let acknowledged = load.acknowledged.withLock { $0 }
    // Each action applied once, in the order sent, at the sequence its receipt named.
    let state = try #require(b.leader?.store.state)
    #expect(state.log["writer"] == Array(0..<acknowledged.count))
    #expect(acknowledged.map(\.value) == Array(0..<acknowledged.count))
    #expect(Set(acknowledged.map(\.sequence)).count == acknowledged.count)
    #expect(acknowledged.map(\.sequence) == acknowledged.map(\.sequence).sorted())

    await follower.stop()
    await b.stop()
    if holding { relay.stop() }
    await a.stop()
  }
}
