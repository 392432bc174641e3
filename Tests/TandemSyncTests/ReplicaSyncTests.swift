
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("Replica sync rules")
struct ReplicaSyncTests {
  let epoch = Epoch(rawValue: 7)
  let start = ContinuousClock.now
  var now: ContinuousClock.Instant { start }

  func delta(_ sequence: UInt64) -> Delta {
    Delta(sequence: sequence, origin: .leader, tag: "t", patch: Array("[]".utf8))
  }

  /// A delta of the actions from `first` to `last`.
  func delta(_ first: UInt64, through last: UInt64) -> Delta {
    let action = AppliedAction(origin: .leader, tag: "t")
    return Delta(
      sequence: last, actions: Array(repeating: action, count: Int(last - first + 1)),
      patch: Array("[]".utf8))
  }

  func applied(_ effects: [ReplicaSync.Effect]) -> [UInt64] {
    effects.compactMap { if case .apply(let delta) = $0 { delta.sequence } else { nil } }
  }

  /// A sync that has joined `epoch` at `sequence`.
  func live(at sequence: UInt64) -> ReplicaSync {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    _ = sync.connected(client: "c", fingerprint: "f", now: now)
    _ = sync.received(
      .welcome(
        epoch, sequence: sequence, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: "inproc://u"),
      now: now)
    _ = sync.received(.heartbeat(epoch, sequence: sequence, stateHash: 0), now: now)
    _ = sync.received(.state(epoch, sequence: sequence, stateHash: 0, document: []), now: now)
    return sync
  }

  @Test func joinsWithHelloThenFirstUpdateThenSnapshot() {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    #expect(
      sync.connected(client: "c", fingerprint: "f", now: now) == [
        .send(.hello(version: ControlRequest.version, client: "c", fingerprint: "f"))
      ])
    #expect(sync.received(.heartbeat(epoch, sequence: 1, stateHash: 0), now: now).isEmpty)
    #expect(
      sync.received(
        .welcome(
          epoch, sequence: 3, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 250,
          updates: "inproc://u"),
        now: now
      )
      .isEmpty)
    #expect(sync.heartbeatInterval == .milliseconds(250))
    #expect(
      sync.received(.heartbeat(epoch, sequence: 3, stateHash: 0), now: now) == [.send(.snapshot)])
    #expect(sync.phase == .awaitingSnapshot)
  }

  @Test func deltasBufferedDuringTheJoinAreAppliedAboveTheSnapshot() {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    _ = sync.connected(client: "c", fingerprint: "f", now: now)
    _ = sync.received(
      .welcome(
        epoch, sequence: 3, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: "inproc://u"),
      now: now)
    #expect(sync.received(.delta(epoch, delta(4)), now: now) == [.send(.snapshot)])
    #expect(sync.received(.delta(epoch, delta(5)), now: now).isEmpty)
    #expect(sync.received(.delta(epoch, delta(6)), now: now).isEmpty)
    let effects = sync.received(.state(epoch, sequence: 4, stateHash: 1, document: [1]), now: now)
    #expect(effects.first == .replace(epoch, sequence: 4, stateHash: 1, document: [1]))
    #expect(applied(effects) == [5, 6])
    #expect(sync.sequence == 6)
    #expect(sync.phase == .live)
  }

  @Test func inOrderDeltasApplyAndDuplicatesAreIgnored() {
    var sync = live(at: 10)
    #expect(applied(sync.received(.delta(epoch, delta(11)), now: now)) == [11])
    #expect(sync.received(.delta(epoch, delta(11)), now: now).isEmpty)
    #expect(sync.received(.delta(epoch, delta(9)), now: now).isEmpty)
    #expect(sync.sequence == 11)
  }

  @Test func aGapIsRepairedFromTheBacklog() {
    var sync = live(at: 10)
    #expect(sync.received(.delta(epoch, delta(13)), now: now) == [.send(.catchUp(epoch, from: 11))])
    #expect(sync.received(.delta(epoch, delta(14)), now: now).isEmpty)
    let effects = sync.received(
      ControlReply.deltas(epoch, [delta(11), delta(12), delta(13)]), now: now)
    #expect(applied(effects) == [11, 12, 13, 14])
    #expect(sync.counters.gapsRepaired == 1)
    #expect(sync.phase == .live)
  }

  @Test func aDeltaOfSeveralActionsMovesTheReplicaPastAllOfThem() {
    var sync = live(at: 10)
    #expect(applied(sync.received(.delta(epoch, delta(11, through: 14)), now: now)) == [14])
    #expect(sync.sequence == 14)
    #expect(sync.received(.delta(epoch, delta(12, through: 14)), now: now).isEmpty)
    #expect(
      sync.received(.delta(epoch, delta(17, through: 18)), now: now) == [
        .send(.catchUp(epoch, from: 15))
      ])
    let effects = sync.received(ControlReply.deltas(epoch, [delta(15, through: 16)]), now: now)
    #expect(applied(effects) == [16, 18])
  }

  @Test func aDeltasMessageIsItsDeltasInOrder() {
    var sync = live(at: 10)
    let effects = sync.received(
      UpdateMessage.deltas(epoch, [delta(10), delta(11), delta(12, through: 13), delta(15)]),
      now: now)
    #expect(applied(effects) == [11, 13])
    #expect(effects.last == .send(.catchUp(epoch, from: 14)))
    #expect(sync.sequence == 13)
  }

  @Test func aDeltaThatBeginsInsideTheReplicasHistoryTakesASnapshot() {
    var sync = live(at: 10)
    #expect(sync.received(.delta(epoch, delta(9, through: 12)), now: now) == [.send(.snapshot)])
    #expect(sync.sequence == 10)
  }

  @Test func aHeartbeatAheadOfTheReplicaRevealsALostLastDelta() {
    var sync = live(at: 10)
    #expect(
      sync.received(.heartbeat(epoch, sequence: 11, stateHash: 0), now: now) == [
        .send(.catchUp(epoch, from: 11))
      ])
  }

  @Test func aHeartbeatInStepAsksForAHashCheck() {
    var sync = live(at: 10)
    #expect(
      sync.received(.heartbeat(epoch, sequence: 10, stateHash: 42), now: now) == [
        .verify(stateHash: 42)
      ])
    #expect(sync.diverged() == [.send(.snapshot)])
    #expect(sync.counters.hashMismatches == 1)
    #expect(sync.counters.resyncs == 1)
  }

  @Test func aStaleCatchUpFallsBackToASnapshot() {
    var sync = live(at: 10)
    _ = sync.received(.delta(epoch, delta(20)), now: now)
    #expect(sync.received(.stale(epoch, sequence: 20), now: now) == [.send(.snapshot)])
    let effects = sync.received(.state(epoch, sequence: 19, stateHash: 0, document: []), now: now)
    #expect(applied(effects) == [20])
  }

  @Test func aNewEpochForcesAResyncEvenToALowerSequence() {
    var sync = live(at: 10)
    let next = Epoch(rawValue: 8)
    #expect(
      sync.received(.heartbeat(next, sequence: 2, stateHash: 0), now: now) == [.send(.snapshot)])
    let effects = sync.received(.state(next, sequence: 2, stateHash: 0, document: []), now: now)
    #expect(effects == [.replace(next, sequence: 2, stateHash: 0, document: [])])
    #expect(sync.epoch == next)
    #expect(sync.sequence == 2)
  }

  @Test func neverGoesBackInTimeWithinAnEpoch() {
    var sync = live(at: 10)
    _ = sync.diverged()
    #expect(sync.received(.state(epoch, sequence: 8, stateHash: 0, document: []), now: now).isEmpty)
    #expect(sync.sequence == 10)
    #expect(sync.phase == .live)
  }

  @Test func deltasOfAnotherEpochBufferedDuringTheJoinAreDropped() {
    var sync = ReplicaSync(silenceLimit: .seconds(3), now: now)
    _ = sync.connected(client: "c", fingerprint: "f", now: now)
    _ = sync.received(
      .welcome(
        epoch, sequence: 3, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: "inproc://u"),
      now: now)
    _ = sync.received(.delta(epoch, delta(4)), now: now)
    let next = Epoch(rawValue: 9)
    let effects = sync.received(.state(next, sequence: 3, stateHash: 0, document: []), now: now)
    #expect(applied(effects).isEmpty)
  }

  @Test func aRealignmentsWelcomeOfAnotherHistoryReplacesTheReplicaBeforeAnyOldDelta() {
    var sync = live(at: 10)
    func welcome(_ epoch: Epoch) -> ControlReply {
      .welcome(
        epoch, sequence: 2, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: "inproc://u")
    }
    // On the open connection, in the replica's history (the leader forgot the client): no
    // change to the replica.
    #expect(sync.received(welcome(epoch), now: now).isEmpty)
    // From a leader restarted with a new history: the old history's deltas still on their way
    // are not applied, and the new history's snapshot replaces the replica.
    let restarted = Epoch(rawValue: 9)
    #expect(sync.received(welcome(restarted), now: now) == [.send(.snapshot)])
    #expect(applied(sync.received(.delta(epoch, delta(11)), now: now)).isEmpty)
    let state = sync.received(.state(restarted, sequence: 2, stateHash: 0, document: []), now: now)
    #expect(state == [.replace(restarted, sequence: 2, stateHash: 0, document: [])])
    #expect(applied(sync.received(.delta(epoch, delta(12)), now: now)).isEmpty)
  }

  @Test func aSilentLeaderIsNoticedWithinTheLimit() {
    var sync = live(at: 10)
    #expect(sync.tick(now: now + .seconds(2)).isEmpty)
    guard case .reconnect = sync.tick(now: now + .seconds(4)).first else {
      Issue.record("expected a reconnect")
      return
    }
    _ = sync.received(.heartbeat(epoch, sequence: 10, stateHash: 0), now: now + .seconds(4))
    #expect(sync.tick(now: now + .seconds(5)).isEmpty)
  }

  @Test func anUnansweredJoinStepReconnects() {
    var sync = live(at: 10)
    _ = sync.received(.delta(epoch, delta(12)), now: now)
    #expect(sync.phase == .catchingUp)
    for second in 1...4 {
      _ = sync.received(.heartbeat(epoch, sequence: 12, stateHash: 0), now: now + .seconds(second))
    }
    guard case .reconnect = sync.tick(now: now + .seconds(4)).first else {
      Issue.record("expected a reconnect")
      return
    }
  }

  @Test func byeAndErrorsReconnect() {
    var sync = live(at: 10)
    guard case .reconnect = sync.received(.bye(epoch, sequence: 10), now: now).first,
      case .reconnect = sync.received(.error(code: .fingerprint, message: "x"), now: now).first
    else {
      Issue.record("expected reconnects")
      return
    }
  }

  @Test func rejoiningTheSameEpochCatchesUpInsteadOfTakingASnapshot() {
    var sync = live(at: 10)
    _ = sync.connected(client: "c", fingerprint: "f", now: now)
    _ = sync.received(
      .welcome(
        epoch, sequence: 15, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: "inproc://u"),
      now: now)
    #expect(
      sync.received(.heartbeat(epoch, sequence: 15, stateHash: 0), now: now) == [
        .send(.catchUp(epoch, from: 11))
      ])
    #expect(sync.counters.resyncs == 0)
  }
}
