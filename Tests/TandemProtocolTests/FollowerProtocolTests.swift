import Testing

@testable import TandemProtocol

/// The follower's exactly-once corner cases on its protocol core: each test feeds inputs (the
/// connection, replies, updates, ticks with their times, actions queued, the replica's reports)
/// and states the effects expected, without sockets or sleeps.
@Suite("Follower protocol: exactly-once corner cases")
struct FollowerProtocolTests {
  let t0 = ContinuousClock.now
  let epoch = Epoch(rawValue: 7)

  func hello(generation: UInt64) -> FollowerEffect {
    .send(
      .hello(
        version: ControlRequest.version, client: "c", fingerprint: "f", generation: generation))
  }

  func welcome(
    _ epoch: Epoch, sequence: UInt64 = 0, lastNumber: UInt64 = 0, forgottenThrough: UInt64 = 0,
    generation: UInt64 = 1, updates: String = "inproc://u"
  ) -> ControlReply {
    .welcome(
      epoch, sequence: sequence, lastNumber: lastNumber, forgottenThrough: forgottenThrough,
      heartbeatMilliseconds: 100, updates: updates, generation: generation)
  }

  func forwarded(_ number: UInt64, generation: UInt64 = 1) -> ForwardedAction {
    ForwardedAction(client: "c", number: number, generation: generation, tag: "t", payload: [])
  }

  func delta(
    _ sequence: UInt64, number: UInt64, client: String = "c", generation: UInt64 = 1
  )
    -> Delta
  {
    Delta(
      sequence: sequence, origin: Origin(client: client, number: number, generation: generation),
      tag: "t", patch: [])
  }

  /// Effects without their log lines.
  func quiet(_ effects: [FollowerEffect]) -> [FollowerEffect] {
    effects.filter {
      if case .log = $0 { return false }
      return true
    }
  }

  /// A follower joined and live at `sequence` of ``epoch``, handed generation 1, with `queued`
  /// actions sent (quietly) at `t0`.
  func live(
    at sequence: UInt64 = 0, sending queued: Int = 0
  ) throws -> (
    FollowerProtocol, [ReceiptID]
  ) {
    var core = FollowerProtocol(
      client: "c", fingerprint: "f", leaders: LeaderEndpoints(["tcp://a:1", "tcp://b:1"]),
      capacity: 10, silenceLimit: .seconds(3),
      resendAfter: .seconds(1), now: t0)
    #expect(core.connected(now: t0) == [hello(generation: 0)])
    #expect(
      core.received(welcome(epoch, sequence: sequence), now: t0) == [.subscribe("inproc://u")])
    #expect(
      core.received(.heartbeat(epoch, sequence: sequence, stateHash: 0), now: t0) == [
        .send(.snapshot)
      ])
    #expect(
      core.received(.state(epoch, sequence: sequence, stateHash: 0, document: []), now: t0) == [
        .replace(epoch, sequence: sequence, stateHash: 0, document: []),
        .connectionChanged(.inStep(epoch, sequence: sequence)),
      ])
    #expect(core.replicaReplaced(epoch: epoch, sequence: sequence, now: t0).isEmpty)
    var receipts: [ReceiptID] = []
    for _ in 0..<queued { receipts.append(try core.queue(tag: "t", payload: [])) }
    if queued > 0 {
      let sent = core.flush(now: t0)
      #expect(sent == [.dispatch((1...UInt64(queued)).map { forwarded($0) }, quietly: true)])
    }
    return (core, receipts)
  }

  @Test func anOwnDeltaSettlesItsReceiptOnceTheReplicaReportsItApplied() throws {
    var (core, receipts) = try live(sending: 1)
    let own = delta(1, number: 1)
    #expect(core.received(.delta(epoch, own), now: t0) == [.apply(own)])
    // Its ACK comes before the replica reported the delta: nothing settles yet.
    #expect(core.received(.ack(client: "c", number: 1, epoch, sequence: 1), now: t0).isEmpty)
    #expect(core.replicaApplied([own][...], now: t0) == [.settle(receipts[0], .success(1))])
  }

  @Test func anAckSettlesOnlyWhenTheReplicaShowsItsSequence() throws {
    var (core, receipts) = try live(sending: 1)
    #expect(core.received(.ack(client: "c", number: 1, epoch, sequence: 2), now: t0).isEmpty)
    let other = delta(1, number: 1, client: "d")
    #expect(core.received(.delta(epoch, other), now: t0) == [.apply(other)])
    #expect(core.replicaApplied([other][...], now: t0).isEmpty)
    let next = delta(2, number: 2, client: "d")
    _ = core.received(.delta(epoch, next), now: t0)
    #expect(core.replicaApplied([next][...], now: t0) == [.settle(receipts[0], .success(2))])
  }

  @Test func aDeltaOfAnotherGenerationSettlesNoReceipt() throws {
    var (core, receipts) = try live(sending: 1)
    // A process that took the client id over used number 1 too.
    let theirs = delta(1, number: 1, generation: 2)
    #expect(core.received(.delta(epoch, theirs), now: t0) == [.apply(theirs)])
    #expect(core.replicaApplied([theirs][...], now: t0).isEmpty)
    let ours = delta(2, number: 1, generation: 1)
    _ = core.received(.delta(epoch, ours), now: t0)
    #expect(core.replicaApplied([ours][...], now: t0) == [.settle(receipts[0], .success(2))])
  }

  @Test func anOutOfOrderAnswerRealignsOnTheOpenConnection() throws {
    var (core, _) = try live(sending: 2)
    let outOfOrder = Rejection(code: .outOfOrder, message: "expected 1")
    let realign = core.received(.reject(client: "c", number: 2, outOfOrder), now: t0)
    #expect(quiet(realign) == [hello(generation: 1)])
    // One HELLO for a realignment, and nothing sent until its WELCOME.
    #expect(core.received(.reject(client: "c", number: 2, outOfOrder), now: t0).isEmpty)
    _ = try core.queue(tag: "t", payload: [])
    #expect(core.flush(now: t0).isEmpty)
    // The leader still has the numbering: everything goes again, as numbered, on the same
    // updates endpoint.
    #expect(
      core.received(welcome(epoch), now: t0) == [
        .dispatch([forwarded(1), forwarded(2), forwarded(3)], quietly: true)
      ])
    #expect(core.counters.realignments == 1)
  }

  @Test func aRealignmentWithoutItsWelcomeReconnects() throws {
    var (core, _) = try live(sending: 1)
    let outOfOrder = Rejection(code: .outOfOrder, message: "expected 1")
    _ = core.received(.reject(client: "c", number: 1, outOfOrder), now: t0)
    #expect(
      core.tick(now: t0 + .seconds(2)) == [
        .send(.ping(client: "c", sequence: 0)),
        .reconnect(reason: "no WELCOME to a HELLO on the open connection"),
      ])
  }

  @Test func aWelcomeThatForgotTheClientFailsTheSentActionsAndRenumbersTheRest() throws {
    var (core, receipts) = try live(at: 10, sending: 2)
    let neverSent = try core.queue(tag: "t", payload: [])
    #expect(core.disconnected(reason: "gone") == [.connectionChanged(.lost(reason: "gone"))])
    #expect(core.connected(now: t0) == [hello(generation: 1)])
    // The leader of the same history forgot the client, and clients active up to 11: 1 and 2,
    // sent at 10, may have been applied; the one never sent is renumbered 1.
    let effects = core.received(welcome(epoch, sequence: 20, forgottenThrough: 11), now: t0)
    #expect(
      quiet(effects) == [
        .subscribe("inproc://u"),
        .settle(receipts[0], .failure(.outcomeUnknown)),
        .settle(receipts[1], .failure(.outcomeUnknown)),
        .dispatch([forwarded(1)], quietly: false),
      ])
    #expect(core.outbox.entries.map(\.receipt) == [neverSent])
  }

  @Test func aQuickRestartsWelcomeOfAnotherEpochRejoinsItsHistory() throws {
    var (core, receipts) = try live(at: 4, sending: 2)
    // Action 1 is acknowledged at 5, not shown yet; the leader restarts behind the open
    // connection with a new history, whose PONG says so.
    #expect(core.received(.ack(client: "c", number: 1, epoch, sequence: 5), now: t0).isEmpty)
    let restarted = Epoch(rawValue: 8)
    #expect(
      quiet(core.received(.pong(restarted, sequence: 0), now: t0)) == [hello(generation: 1)])
    // Its WELCOME names another updates endpoint; its ledger expects 1: action 2 goes as 1.
    #expect(
      core.received(welcome(restarted, updates: "inproc://u2"), now: t0) == [
        .send(.snapshot), .subscribe("inproc://u2"), .dispatch([forwarded(1)], quietly: false),
      ])
    #expect(
      core.received(.state(restarted, sequence: 0, stateHash: 0, document: []), now: t0) == [
        .replace(restarted, sequence: 0, stateHash: 0, document: []),
        .connectionChanged(.inStep(restarted, sequence: 0)),
      ])
    #expect(
      core.replicaReplaced(epoch: restarted, sequence: 0, now: t0) == [
        .settle(receipts[0], .failure(.historyLost))
      ])
    // A late delta of the old history answers nothing; the new history's settles action 2.
    #expect(core.received(.delta(epoch, delta(5, number: 1)), now: t0) == [.send(.snapshot)])
    _ = core.received(.state(restarted, sequence: 0, stateHash: 0, document: []), now: t0)
    _ = core.replicaReplaced(epoch: restarted, sequence: 0, now: t0)
    let answer = delta(1, number: 1)
    #expect(core.received(.delta(restarted, answer), now: t0) == [.apply(answer)])
    #expect(core.replicaApplied([answer][...], now: t0) == [.settle(receipts[1], .success(1))])
  }

  @Test func supersededStopsAndFailsEveryUnansweredReceipt() throws {
    var (core, receipts) = try live(sending: 2)
    #expect(core.received(.ack(client: "c", number: 1, epoch, sequence: 3), now: t0).isEmpty)
    let unsent = try core.queue(tag: "t", payload: [])
    let cause = FollowerStopCause.refused(code: .superseded, message: "taken")
    #expect(
      quiet(core.received(.error(code: .superseded, message: "taken"), now: t0)) == [
        .settle(receipts[1], .failure(.stopped(cause))),
        .settle(unsent, .failure(.stopped(cause))),
        .settle(receipts[0], .failure(.stopped(cause))),
        .stop(cause),
      ])
    #expect(core.isStopped && core.stopCause == cause)
    #expect(throws: OutboxRefusal.stopped) { try core.queue(tag: "t", payload: []) }
    #expect(core.received(.ack(client: "c", number: 2, epoch, sequence: 4), now: t0).isEmpty)
    #expect(core.stop().isEmpty)
  }

  @Test func silenceResendsWhatWentUnansweredAndLongerSilenceReconnects() throws {
    var (core, _) = try live(sending: 2)
    let ping = FollowerEffect.send(.ping(client: "c", sequence: 0))
    #expect(core.tick(now: t0 + .milliseconds(500)) == [ping])
    #expect(
      core.tick(now: t0 + .milliseconds(1_500)) == [
        ping, .dispatch([forwarded(1), forwarded(2)], quietly: true),
      ])
    #expect(core.counters.resends == 1)
    #expect(core.tick(now: t0 + .milliseconds(2_500)) == [ping])
    let silent = core.tick(now: t0 + .milliseconds(3_500))
    guard case .reconnect(let reason) = silent.first, silent.count == 1 else {
      Issue.record("expected a reconnect, got \(silent)")
      return
    }
    #expect(reason.contains("silent"))
  }

  @Test func aPauseOfThisProcessIsNotTheLeadersSilence() throws {
    var (core, _) = try live(sending: 1)
    let reconnects = { (effects: [FollowerEffect]) in
      effects.contains { if case .reconnect = $0 { true } else { false } }
    }
    _ = core.tick(now: t0 + .milliseconds(500))
    // Paused for 4 s, longer than the 3 s limit: the leader's messages of the pause are still
    // on their way in, and the first tick after it does not reconnect.
    #expect(!reconnects(core.tick(now: t0 + .milliseconds(4_500))))
    // They came: the leader was not silent.
    _ = core.received(.heartbeat(epoch, sequence: 0, stateHash: 0), now: t0 + .milliseconds(4_550))
    #expect(!reconnects(core.tick(now: t0 + .milliseconds(4_600))))
    // Then the leader stays silent while this process runs: within the limit, it reconnects.
    var reconnected = false
    for milliseconds in stride(from: 5_350, through: 8_500, by: 750) {
      if reconnects(core.tick(now: t0 + .milliseconds(milliseconds))) {
        reconnected = true
        break
      }
    }
    #expect(reconnected)
  }

  @Test func aSendTheSocketCouldNotQueueGoesAtTheNextFlush() throws {
    var (core, _) = try live(sending: 3)
    core.unsent(from: 2)
    #expect(core.flush(now: t0) == [.dispatch([forwarded(2), forwarded(3)], quietly: true)])
    #expect(core.flush(now: t0).isEmpty)
  }

  @Test func nothingIsSentBetweenConnections() throws {
    var (core, _) = try live()
    _ = core.disconnected(reason: "gone")
    _ = try core.queue(tag: "t", payload: [])
    #expect(core.flush(now: t0).isEmpty)
    #expect(core.tick(now: t0 + .seconds(10)).isEmpty)
    // The outage was reported once.
    #expect(core.disconnected(reason: "again").isEmpty)
  }
}
