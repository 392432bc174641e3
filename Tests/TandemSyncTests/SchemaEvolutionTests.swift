import CounterVersions
import Foundation
import StatePatch
import Tandem
import TandemJournal
import TandemProtocol
import Testing

@testable import TandemSync

/// Processes of two versions of one application sharing a state (see `CounterVersions`).
@Suite("Schema evolution: builds of two versions side by side")
struct SchemaEvolutionTests {
  /// Sends `count` increases from `follower` at once; returns the sequences they applied at.
  static func load<State>(
    _ follower: Follower<State>, count: Int
  ) async throws -> [UInt64] {
    var receipts: [Receipt] = []
    for _ in 0..<count { receipts.append(try follower.send(CounterV1.Increase())) }
    var sequences: [UInt64] = []
    for receipt in receipts { sequences.append(try await receipt.applied()) }
    return sequences
  }

  @Test func aV2LeaderServesV1AndV2FollowersUnderLoad() async throws {
    let leader = try await versionedLeader(CounterV2.store(), registry: CounterV2.registry)
    let old = try await versionedFollower(
      CounterV1.State.self, of: leader.controlEndpoint, registry: CounterV1.registry)
    let new = try await versionedFollower(
      CounterV2.State.self, of: leader.controlEndpoint, registry: CounterV2.registry)
    #expect(old.schema != new.schema)
    async let fromOld = Self.load(old, count: 300)
    async let fromNew = Self.load(new, count: 300)
    let fromBoth = try await (fromOld, fromNew)
    let sequences = fromBoth.0 + fromBoth.1
    // Every action acknowledged, and applied exactly once (the counter). A resent duplicate is
    // answered with the client's latest sequence, so sequences may repeat.
    #expect(sequences.count == 600)
    #expect(leader.store.state.counter == 600)
    #expect(leader.store.state.hits == 600)
    let reset = try await new.send(CounterV2.Reset(note: "from v2")).applied()
    await eventually("both replicas show the reset") {
      old.store.state.counter == 0 && new.store.state == leader.store.state
    }
    #expect(reset > 0)
    // The v1 replica is exact in what it knows, and its hash (over the leader's document,
    // unknown fields kept) verified at every heartbeat: no mismatch, no resync.
    try await Self.expectVerified(old, at: leader)
    try await Self.expectVerified(new, at: leader)
    await old.stop()
    await new.stop()
    await leader.stop()
  }

  @Test func aV1LeaderServesV2FollowersAndRefusesTheirNewAction() async throws {
    let leader = try await versionedLeader(CounterV1.store(), registry: CounterV1.registry)
    let new = try await versionedFollower(
      CounterV2.State.self, of: leader.controlEndpoint, registry: CounterV2.registry)
    let old = try await versionedFollower(
      CounterV1.State.self, of: leader.controlEndpoint, registry: CounterV1.registry)
    async let fromOld = Self.load(old, count: 200)
    async let fromNew = Self.load(new, count: 200)
    let fromBoth = try await (fromOld, fromNew)
    #expect(fromBoth.0.count + fromBoth.1.count == 400)
    #expect(leader.store.state.counter == 400)
    await #expect {
      _ = try await new.send(CounterV2.Reset(note: "too new")).applied()
    } throws: { error in
      guard case .rejected(let rejection) = error as? FollowerError else { return false }
      return rejection.code == .unknownTag && rejection.message.contains("counter.reset")
    }
    _ = try await Self.load(old, count: 1)
    await eventually("the v2 replica shows every v1 action, with its defaults") {
      new.store.state.counter == 401 && new.store.state.hits == 0
    }
    try await Self.expectVerified(new, at: leader)
    await new.stop()
    await old.stop()
    await leader.stop()
  }

  @Test func aV3FollowerIsRefusedAtHelloNamingTheField() async throws {
    let leader = try await versionedLeader(CounterV2.store(), registry: CounterV2.registry)
    await #expect {
      _ = try await versionedFollower(
        CounterV3.State.self, of: leader.controlEndpoint, registry: CounterV3.registry)
    } throws: { error in
      guard case .refused(let code, let message) = error as? FollowerError else { return false }
      return code == .schema && message.contains("the state at /counter")
        && message.contains("the follower reads String, the leader writes Int")
    }
    await leader.stop()
  }

  /// The follower's replica reached the leader's sequence without a hash mismatch, a resync or
  /// a patch that failed (the hash itself is checked in `anOlderReplicaKeepsWhatItCannotDecode`).
  static func expectVerified<State, LeaderState>(
    _ follower: Follower<State>, at leader: Leader<LeaderState>
  ) async throws {
    let sequence = try await leader.statistics().sequence
    await eventually("the follower reaches \(sequence)") {
      (try? await follower.statistics().sequence) == sequence
    }
    let statistics = try await follower.statistics()
    #expect(statistics.hashMismatches == 0)
    #expect(statistics.resyncs == 0)
    #expect(statistics.applyFailures == 0)
  }

  @Test func anOlderReplicaKeepsWhatItCannotDecode() throws {
    // The v2 leader's states, and the patches between them.
    var states = [CounterV2.State()]
    for step in 0..<4 {
      var next = states.last!
      CounterV2.reduce(&next, step == 2 ? CounterV2.Reset(note: "n") : CounterV1.Increase())
      states.append(next)
    }
    var encoder = StateEncoder()
    let documents = try states.map { try encoder.encode($0) }
    var model = TypedReplicaModel<CounterV1.State>()
    var replica = try model.reset(document: documents[0].canonicalBytes())
    for (index, document) in documents.enumerated().dropFirst() {
      var differ = StateDiffer()
      let patch = try differ.patch(from: states[index - 1], to: states[index])
      try model.apply(patches: [patch.json.canonicalBytes()], to: &replica)
      // Exact in what it knows, and its hash is the leader's: the hash of the v2 document.
      #expect(replica.counter == states[index].counter)
      #expect(model.stateHash(of: replica) == document.canonicalHash())
    }
  }

  @Test func aV2LeaderStartsFromAV1JournalAndKeepsItReplayable() async throws {
    let directory = try LeaderDirectory()
    let path = directory.journal
    let v1 = try await versionedLeader(
      CounterV1.store(), registry: CounterV1.registry, journal: path)
    let early = try await versionedFollower(
      CounterV1.State.self, of: v1.controlEndpoint, registry: CounterV1.registry)
    _ = try await Self.load(early, count: 50)
    await early.stop()
    await v1.stop()

    let v2 = try await versionedLeader(
      CounterV2.store(), registry: CounterV2.registry, journal: path)
    // The v1 history decoded with v2's defaults.
    #expect(v2.store.state.counter == 50)
    #expect(v2.store.state.hits == 0)
    let old = try await versionedFollower(
      CounterV1.State.self, of: v2.controlEndpoint, registry: CounterV1.registry)
    let new = try await versionedFollower(
      CounterV2.State.self, of: v2.controlEndpoint, registry: CounterV2.registry)
    async let fromOld = Self.load(old, count: 100)
    async let fromNew = Self.load(new, count: 100)
    let fromBoth = try await (fromOld, fromNew)
    #expect(fromBoth.0.count + fromBoth.1.count == 200)
    #expect(v2.store.state.counter == 250)
    #expect(v2.store.state.hits == 200)
    try await Self.expectVerified(old, at: v2)
    try await Self.expectVerified(new, at: v2)
    await old.stop()
    await new.stop()
    await v2.stop()

    // The journal now replays from a snapshot in v2's encoding, recorded with v2's schema.
    let reader = try Journal(readingAt: path)
    let snapshot = try #require(try reader.latestSnapshot())
    #expect(
      try SchemaDescription(json: try JSONParser().parse(snapshot.schema))
        == SchemaDescription(of: CounterV2.State.self))
    reader.close()
    let again = try await versionedLeader(
      CounterV2.store(), registry: CounterV2.registry, journal: path)
    #expect(again.store.state.counter == 250)
    #expect(again.store.state.hits == 200)
    await again.stop()
  }

  @Test func aV3LeaderRefusesAV1JournalNamingTheFieldAndWritesNothing() async throws {
    let directory = try LeaderDirectory()
    let path = directory.journal
    let v1 = try await versionedLeader(
      CounterV1.store(), registry: CounterV1.registry, journal: path)
    v1.store.dispatch(CounterV1.Increase())
    await eventually("the increase is journaled") {
      (try? await v1.statistics().sequence) == 1
    }
    await v1.stop()
    let before = Self.journalFiles(path)
    await #expect {
      _ = try await versionedLeader(
        CounterV3.store(), registry: CounterV3.registry, journal: path)
    } throws: { error in
      guard case .unreplayableJournal(_, _, let reason) = error as? LeaderError else {
        return false
      }
      return reason.contains("the journal's state at /counter")
        && reason.contains("this leader reads String, the journal writes Int")
    }
    #expect(Self.journalFiles(path) == before)
    // The v1 build still starts from it, as it was.
    let back = try await versionedLeader(
      CounterV1.store(), registry: CounterV1.registry, journal: path)
    #expect(back.store.state.counter == 1)
    await back.stop()
  }

  /// The bytes of the journal at `path` and of its write-ahead log (nil where there is none,
  /// or an empty one).
  static func journalFiles(_ path: String) -> [Data?] {
    [path, path + "-wal"].map { file in
      FileManager.default.contents(atPath: file).flatMap { $0.isEmpty ? nil : $0 }
    }
  }
}
