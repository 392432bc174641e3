import Testing

@testable import TandemProtocol

/// ``LeaderProtocol``'s answers to `HELLO` and `PING`, and its table of followers: inputs and
/// the effects they return, without sockets or sleeps.
@Suite("Leader protocol: handshake and followers")
struct LeaderHandshakeTests {
  typealias F = LeaderFixture

  @Test("a HELLO of another protocol version is refused, and counted")
  func versionRefused() {
    var fixture = F()
    let effects = fixture.receive(
      .hello(version: "TSP/4", client: "c", fingerprint: F.fingerprint))
    #expect(
      effects.actions == [
        .reply(to: F.a, .error(code: .version, message: "this leader speaks TSP/5, not TSP/4"))
      ])
    #expect(effects.counted == [.handshakeFailure(.version)])
    #expect(fixture.core.followers.owners.isEmpty)
  }

  @Test("a HELLO of another schema fingerprint is refused; '*' matches any")
  func fingerprintRefused() {
    var fixture = F()
    let effects = fixture.receive(
      .hello(version: ControlRequest.version, client: "c", fingerprint: "fp-2"))
    #expect(effects.errorCode == .fingerprint)
    #expect(effects.counted == [.handshakeFailure(.fingerprint)])
    #expect(fixture.core.followers.owners.isEmpty)
    let any = fixture.receive(
      .hello(version: ControlRequest.version, client: "c", fingerprint: "*"))
    #expect(any.errorCode == nil)
    #expect(fixture.core.followers.owners["c"] == F.a)
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    /// The client's generation in the ledger before the `HELLO` (nil: no entry).
    var owner: UInt64?
    var hello: UInt64
    /// The generation welcomed, or nil for `ERROR superseded`.
    var welcomed: UInt64?
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(name: "a new process", owner: nil, hello: 0, welcomed: 5),
    Row(name: "the owner reconnects", owner: 3, hello: 3, welcomed: 3),
    Row(name: "a restarted process takes the id over", owner: 3, hello: 0, welcomed: 8),
    Row(name: "a process taken over comes back", owner: 8, hello: 3, welcomed: nil),
    Row(
      name: "a generation the ledger did not record is renewed", owner: 2, hello: 7, welcomed: 12),
  ]

  @Test(arguments: rows)
  func hello(_ row: Row) {
    var fixture = F(sequence: 10)
    if let owner = row.owner {
      fixture.ledger.ledger.recordApplied(client: "c", number: 1, sequence: 10)
      fixture.ledger.ledger.own("c", generation: owner, now: 10)
    }
    let effects = fixture.receive(
      .hello(
        version: ControlRequest.version, client: "c", fingerprint: F.fingerprint,
        generation: row.hello))
    if let welcomed = row.welcomed {
      let welcome = ControlReply.welcome(
        F.epoch, sequence: 10, lastNumber: row.owner == nil ? 0 : 1, forgottenThrough: 0,
        heartbeatMilliseconds: 1000, updates: "tcp://u:1", generation: welcomed,
        limits: .standard)
      #expect(effects.actions == [.reply(to: F.a, welcome)])
      #expect(fixture.core.followers.owners["c"] == F.a)
      #expect(fixture.ledger.ledger.entries["c"]?.generation == welcomed)
    } else {
      #expect(effects.errorCode == .superseded)
      #expect(effects.counted == [.supersededHello])
      #expect(fixture.core.followers.owners["c"] == nil)
      #expect(fixture.ledger.ledger.entries["c"]?.generation == row.owner)
    }
  }

  @Test("a PING updates a known follower's last contact and lag; an unknown one is only answered")
  func ping() {
    var fixture = F(sequence: 50)
    fixture.welcome()
    fixture.clock = .seconds(10)
    let effects = fixture.receive(.ping(client: "c", sequence: 42))
    #expect(effects == [.reply(to: F.a, .pong(F.epoch, sequence: 50))])
    #expect(
      fixture.core.followers.records["c"]
        == LeaderFollowers.Follower(lastSeen: F.start + .seconds(10), sequence: 42))
    let tool = fixture.receive(.ping(client: "tool", sequence: 0), from: F.b)
    #expect(tool == [.reply(to: F.b, .pong(F.epoch, sequence: 50))])
    #expect(fixture.core.followers.records["tool"] == nil)
  }

  @Test("a tick forgets followers silent past the limit, with the ids they owned, and beats")
  func forgetSilent() {
    var fixture = F(sequence: 3)
    fixture.welcome("c")
    fixture.clock = .seconds(30)
    fixture.welcome("d", on: F.b)
    var effects: [LeaderEffect] = []
    fixture.core.tick(now: F.start + .seconds(61), stateHash: 99, into: &effects)
    #expect(effects == [.publish(.heartbeat(F.epoch, sequence: 3, stateHash: 99))])
    #expect(fixture.core.followers.records.keys.sorted() == ["d"])
    #expect(fixture.core.followers.owners == ["d": F.b])
    // A dispatch for a forgotten follower's id is judged by the ledger alone.
    let dispatched = fixture.receive(.dispatch(F.action(1)), from: F.b)
    #expect(
      dispatched.actions == [
        .apply(
          F.action(1), Origin(client: "c", number: 1, generation: 5), from: F.b, quietly: false)
      ])
  }

  @Test("beyond the most followers kept, the least recently heard from is forgotten")
  func forgetBeyondMaximum() {
    var fixture = F(maximumFollowers: 2)
    for (index, client) in ["c", "d", "e"].enumerated() {
      fixture.clock = .seconds(index)
      fixture.welcome(client, on: Frame(utf8: client))
    }
    #expect(fixture.core.followers.records.keys.sorted() == ["d", "e"])
    #expect(fixture.core.followers.owners["c"] == nil)
  }

  @Test("a reply to a request waits behind the replies held for the batch, to keep their order")
  func heldOrder() {
    var fixture = F()
    fixture.welcome()
    _ = fixture.applied(F.action(1), result: .success(1))
    let effects = fixture.receive(.ping(client: "c", sequence: 0))
    #expect(effects == [.replyAfterCommit(to: F.a, .pong(F.epoch, sequence: 0), quiet: false)])
  }
}
