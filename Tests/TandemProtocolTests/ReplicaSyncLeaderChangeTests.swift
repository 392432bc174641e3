import Testing

@testable import TandemProtocol

/// The follower's rules for a leader that changed behind its open connection: the generation it
/// says `HELLO` with, a `PONG` of another epoch, and a leader behind the replica in the same
/// epoch. Each test states the inputs and the effects expected.
@Suite("Replica sync: a leader that changed")
struct ReplicaSyncLeaderChangeTests {
  let epoch = Epoch(rawValue: 7)
  let now = ContinuousClock.now

  func welcome(_ epoch: Epoch, sequence: UInt64, generation: UInt64) -> ControlReply {
    .welcome(
      epoch, sequence: sequence, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
      updates: "inproc://u", generation: generation)
  }

  /// A sync that has joined `epoch` at `sequence`, handed `generation`.
  func live(at sequence: UInt64, generation: UInt64 = 1) -> ReplicaSync {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    _ = sync.connected(client: "c", fingerprint: "f", now: now)
    _ = sync.received(welcome(epoch, sequence: sequence, generation: generation), now: now)
    _ = sync.received(.heartbeat(epoch, sequence: sequence, stateHash: 0), now: now)
    _ = sync.received(.state(epoch, sequence: sequence, stateHash: 0, document: []), now: now)
    return sync
  }

  @Test func helloCarriesTheGenerationTheLastWelcomeHanded() {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    #expect(
      sync.connected(client: "c", fingerprint: "f", now: now) == [
        .send(.hello(version: ControlRequest.version, client: "c", fingerprint: "f", generation: 0))
      ])
    _ = sync.received(welcome(epoch, sequence: 0, generation: 5), now: now)
    #expect(sync.generation == 5)
    // A reconnect says HELLO as generation 5, and so does a realignment on the open connection.
    #expect(
      sync.connected(client: "c", fingerprint: "f", now: now) == [
        .send(.hello(version: ControlRequest.version, client: "c", fingerprint: "f", generation: 5))
      ])
    #expect(
      sync.hello(client: "c", fingerprint: "f")
        == .hello(version: ControlRequest.version, client: "c", fingerprint: "f", generation: 5))
  }

  /// A leader restarted from its journal (same epoch) on another updates endpoint, behind the
  /// open control connection: its PONGs keep coming, the old updates endpoint is silent. Only
  /// updates count while live, so the follower rejoins and learns the new endpoint.
  @Test func pongsAloneDoNotKeepALiveReplicaThatHearsNoUpdates() {
    var sync = live(at: 4)
    var effects: [ReplicaSync.Effect] = []
    for second in 1...4 {
      let at = now + .seconds(second)
      _ = sync.ping(client: "c")
      _ = sync.received(.pong(epoch, sequence: 9), now: at)
      effects += sync.tick(now: at)
    }
    #expect(effects.contains { if case .reconnect = $0 { true } else { false } })
    // Updates keep it live, PONGs or not.
    var heard = live(at: 4)
    var quiet: [ReplicaSync.Effect] = []
    for second in 1...4 {
      let at = now + .seconds(second)
      quiet += heard.received(.heartbeat(epoch, sequence: 4, stateHash: 0), now: at)
      quiet += heard.tick(now: at)
    }
    #expect(!quiet.contains { if case .reconnect = $0 { true } else { false } })
  }

  @Test func aPongOfAnotherEpochWhileLiveSaysHelloAgain() {
    var sync = live(at: 4)
    _ = sync.ping(client: "c")
    let effects = sync.received(.pong(Epoch(rawValue: 8), sequence: 0), now: now)
    #expect(effects.count == 1)
    guard case .realign(let reason) = effects.first else {
      Issue.record("expected a realignment, got \(effects)")
      return
    }
    #expect(reason.contains("new history"))
  }

  @Test func aPongOfTheSameEpochAtOrAboveThePingIsQuiet() {
    var sync = live(at: 4)
    _ = sync.ping(client: "c")
    #expect(sync.received(.pong(epoch, sequence: 4), now: now).isEmpty)
    _ = sync.ping(client: "c")
    #expect(sync.received(.pong(epoch, sequence: 9), now: now).isEmpty)
    #expect(sync.counters.aheadOfLeader == 0)
  }

  @Test func aLeaderBehindTheReplicaInTheSameEpochIsReportedAndResynced() {
    var sync = live(at: 10)
    #expect(sync.ping(client: "c") == .ping(client: "c", sequence: 10))
    let effects = sync.received(.pong(epoch, sequence: 6), now: now)
    #expect(effects.count == 2)
    guard case .report(let message) = effects.first else {
      Issue.record("expected a report first, got \(effects)")
      return
    }
    #expect(message.contains("lost the end of its history"))
    #expect(effects.last == .send(.snapshot))
    #expect(sync.counters.aheadOfLeader == 1)
    // The leader's snapshot is older than the replica, and taken all the same.
    let replaced = sync.received(.state(epoch, sequence: 6, stateHash: 3, document: [1]), now: now)
    #expect(replaced == [.replace(epoch, sequence: 6, stateHash: 3, document: [1])])
    #expect(sync.sequence == 6)
    #expect(sync.phase == .live)
  }

  @Test func anOlderSnapshotIsStillRefusedWhenTheLeaderIsNotBehind() {
    // A snapshot served before deltas the replica already applied: never go back in time.
    var sync = live(at: 10)
    _ = sync.diverged()  // asks for a snapshot
    #expect(sync.received(.state(epoch, sequence: 8, stateHash: 0, document: []), now: now).isEmpty)
    #expect(sync.sequence == 10)
  }

  @Test func aPongBelowTheReplicaThatWasNotPingedAtIsIgnored() {
    // The replica moved ahead after the PING (deltas on the updates socket), so a PONG below
    // it says nothing about the leader.
    var sync = live(at: 4)
    _ = sync.ping(client: "c")
    _ = sync.received(
      .delta(epoch, Delta(sequence: 5, origin: .leader, tag: "t", patch: Array("[]".utf8))),
      now: now)
    #expect(sync.sequence == 5)
    #expect(sync.received(.pong(epoch, sequence: 4), now: now).isEmpty)
  }

  @Test func aStallOfTheFollowersOwnProcessIsNotTheLeadersSilence() {
    // Ticks every second with a 3 s limit, then none for 10 s (the process was stopped): the
    // first tick after it does not reconnect; the silence counted while the follower ran, 2 s
    // before the stall and 2 s after it, does.
    var sync = live(at: 4)
    for second in 1...2 { #expect(sync.tick(now: now + .seconds(second)).isEmpty) }
    #expect(sync.tick(now: now + .seconds(12)).isEmpty)
    #expect(sync.tick(now: now + .seconds(13)).isEmpty)
    guard case .reconnect = sync.tick(now: now + .seconds(14)).first else {
      Issue.record("expected a reconnect once the leader stayed silent after the stall")
      return
    }
  }
}
