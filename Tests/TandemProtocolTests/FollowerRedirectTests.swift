import Testing

@testable import TandemProtocol

/// A follower of standby leaders: `REDIRECT` answers, silence moving it to the next endpoint,
/// and the actions in flight going again to the leader it joins.
extension FollowerProtocolTests {
  @Test func aRedirectJoinsTheLeaseHolderNamed() {
    var core = FollowerProtocol(
      client: "c", fingerprint: "f", leaders: LeaderEndpoints(["tcp://a:1", "tcp://b:1"]),
      capacity: 10, silenceLimit: .seconds(3), resendAfter: .seconds(1), now: t0)
    _ = core.connected(now: t0)
    let redirect = ControlReply.redirect(
      control: "tcp://b:1", updates: "tcp://b:2", fencingEpoch: 4, holder: "b:1:x")
    #expect(
      quiet(core.received(redirect, now: t0)) == [
        .reconnect(reason: "redirected by a standby leader to tcp://b:1")
      ])
    #expect(core.leaders.current == "tcp://b:1")
    #expect(core.leaders.redirects == 1)
    // Joining the holder counts the redirects from zero again.
    _ = core.disconnected(reason: "redirected")
    _ = core.connected(now: t0)
    _ = core.received(welcome(epoch), now: t0)
    #expect(core.leaders.redirects == 0)
  }

  @Test func aRedirectNamingNoLeaderTriesTheStandbyAgain() {
    var core = FollowerProtocol(
      client: "c", fingerprint: "f", leaders: LeaderEndpoints(["tcp://a:1", "tcp://b:1"]),
      capacity: 10, silenceLimit: .seconds(3), resendAfter: .seconds(1), now: t0)
    _ = core.connected(now: t0)
    let none = ControlReply.redirect(control: "", updates: "", fencingEpoch: 0, holder: "")
    #expect(
      quiet(core.received(none, now: t0)) == [
        .reconnect(reason: "redirected by a standby leader to tcp://a:1")
      ])
  }

  @Test func aSilentLeaderMovesTheFollowerToTheNextEndpoint() throws {
    var (core, _) = try live()
    #expect(core.leaders.current == "tcp://a:1")
    let effects = core.tick(now: t0 + .seconds(4))
    #expect(effects.contains { if case .reconnect = $0 { true } else { false } })
    #expect(core.leaders.current == "tcp://b:1")
  }

  /// The old leader died with two actions unanswered; the follower joins the new one, which
  /// continued the history: both go again, as numbered, and the new leader's ledger answers
  /// what the old one applied as a duplicate.
  @Test func actionsInFlightGoAgainToTheNewLeader() throws {
    var (core, receipts) = try live(sending: 2)
    _ = core.tick(now: t0 + .seconds(4))
    _ = core.disconnected(reason: "the leader has been silent")
    let later = t0 + .seconds(4)
    #expect(core.connected(now: later) == [hello(generation: 1)])
    // The shared journal holds the ledger with this process's generation: the new leader
    // knows it, and welcomes it under it.
    let joined = core.received(welcome(epoch, lastNumber: 1, generation: 1), now: later)
    #expect(
      joined.contains(
        .dispatch([forwarded(1, generation: 1), forwarded(2, generation: 1)], quietly: false)))
    // The first was applied by the old leader: the replica catches up on it, which settles
    // it, and the new leader's answer to its copy (a duplicate) finds nothing left to settle.
    let first = delta(1, number: 1)
    _ = core.received(.heartbeat(epoch, sequence: 0, stateHash: 0), now: later)
    _ = core.received(.delta(epoch, first), now: later)
    let shown = core.replicaApplied([first][...], now: later)
    #expect(shown.contains(.settle(receipts[0], .success(1))))
    #expect(core.received(.ack(client: "c", number: 1, epoch, sequence: 1), now: later).isEmpty)
    #expect(core.outbox.entries.map(\.number) == [2])
  }

  @Test func redirectFramesRoundTrip() throws {
    let reply = ControlReply.redirect(
      control: "ipc:///run/b-control", updates: "ipc:///run/b-updates", fencingEpoch: 42, holder: "b:77:ab")
    #expect(
      reply.frames == [
        Frame(utf8: "REDIRECT"), Frame(utf8: "ipc:///run/b-control"), Frame(utf8: "ipc:///run/b-updates"),
        Frame(bigEndian: 42), Frame(utf8: "b:77:ab"),
      ])
    #expect(try ControlReply(frames: reply.frames) == reply)
    let short = Array(reply.frames.dropLast())
    #expect(throws: ProtocolViolation.self) { try ControlReply(frames: short) }
    let badEpoch = [reply.frames[0], reply.frames[1], reply.frames[2], [1, 2], reply.frames[4]]
    #expect(throws: ProtocolViolation.self) { try ControlReply(frames: badEpoch) }
  }
}
