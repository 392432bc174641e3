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
      .hello(version: "TSP/5", client: "c", fingerprint: F.fingerprint))
    #expect(
      effects.actions == [
        .reply(
          to: F.a,
          .error(
            code: .version,
            message:
              "this leader speaks TSP/7, not TSP/5: run the follower with a Tandem release"
              + " that speaks TSP/7"))
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

/// `HELLO`s whose fingerprint differs from the leader's, with and without a schema.
@Suite("Leader protocol: schemas at HELLO")
struct LeaderSchemaHandshakeTests {
  typealias F = LeaderFixture
  typealias V = SchemaVersions

  static func fixture() -> F {
    var fixture = F()
    var configuration = fixture.core.configuration
    configuration.schema = V.schema(V.StateV2.self, V.v2Actions)
    fixture.core = LeaderProtocol(epoch: F.epoch, sequence: 0, configuration: configuration)
    return fixture
  }

  static func hello(_ schema: ApplicationSchema?) -> ControlRequest {
    .hello(
      version: ControlRequest.version, client: "c", fingerprint: "fp-other", schema: schema?.frame)
  }

  @Test("a compatible schema is welcomed, and the WELCOME carries the leader's")
  func compatibleWelcomed() throws {
    var fixture = Self.fixture()
    let effects = fixture.receive(Self.hello(V.schema(V.StateV1.self)))
    #expect(effects.errorCode == nil)
    guard case .reply(_, .welcome(_, _, _, _, _, _, _, _, let schema?)) = effects.actions.first
    else {
      Issue.record("no WELCOME with a schema: \(effects)")
      return
    }
    #expect(try ApplicationSchema(bytes: schema) == V.schema(V.StateV2.self, V.v2Actions))
    #expect(fixture.core.followers.owners["c"] == F.a)
  }

  @Test("an incompatible schema is refused with ERROR schema naming the field and shapes")
  func incompatibleRefused() {
    var fixture = Self.fixture()
    let effects = fixture.receive(Self.hello(V.schema(V.StateV3.self)))
    #expect(effects.errorCode == .schema)
    #expect(effects.counted == [.handshakeFailure(.schema)])
    guard case .reply(_, .error(_, let message)) = effects.actions.first else {
      Issue.record("no ERROR: \(effects)")
      return
    }
    #expect(message.contains("the state at /counter"))
    #expect(message.contains("the follower reads String, the leader writes Int"))
    #expect(fixture.core.followers.owners.isEmpty)
  }

  @Test("a schema frame that is no schema is refused with ERROR schema")
  func malformedSchemaRefused() {
    var fixture = Self.fixture()
    let effects = fixture.receive(
      .hello(
        version: ControlRequest.version, client: "c", fingerprint: "fp-other",
        schema: Frame(utf8: "{\"x\":1}")))
    #expect(effects.errorCode == .schema)
  }

  @Test("without a schema, another fingerprint is refused as before")
  func noSchemaNeedsTheFingerprint() {
    var fixture = Self.fixture()
    #expect(fixture.receive(Self.hello(nil)).errorCode == .fingerprint)
  }

  @Test("HELLO and WELCOME keep the schema frame through the wire codec")
  func wire() throws {
    let schema = V.schema(V.StateV1.self).frame
    let hello = ControlRequest.hello(
      version: ControlRequest.version, client: "c", fingerprint: "f", generation: 3,
      schema: schema)
    #expect(try ControlRequest(frames: hello.frames) == hello)
    let bare = ControlRequest.hello(version: ControlRequest.version, client: "c", fingerprint: "f")
    #expect(bare.frames.last == [])
    #expect(try ControlRequest(frames: bare.frames) == bare)
    // An older follower's HELLO ends at its generation.
    #expect(try ControlRequest(frames: Array(bare.frames.dropLast())) == bare)
    let welcome = ControlReply.welcome(
      F.epoch, sequence: 1, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 5,
      updates: "tcp://u:1", schema: schema)
    #expect(try ControlReply(frames: welcome.frames) == welcome)
  }
}

/// The follower's side of the schema exchange.
@Suite("Follower protocol: the leader's schema in WELCOME")
struct FollowerSchemaTests {
  typealias V = SchemaVersions

  func joined(_ schema: ApplicationSchema, welcome leader: ApplicationSchema?) -> [FollowerEffect] {
    let now = ContinuousClock.now
    var follower = FollowerProtocol(
      client: "c", fingerprint: "f", schema: schema, leaders: LeaderEndpoints(["tcp://a:1"]),
      capacity: 10, silenceLimit: .seconds(5),
      resendAfter: .seconds(1), now: now)
    let hello = follower.connected(now: now)
    #expect(
      hello == [
        .send(
          .hello(
            version: ControlRequest.version, client: "c", fingerprint: "f",
            schema: schema.frame))
      ])
    return follower.received(
      .welcome(
        Epoch(rawValue: 1), sequence: 0, lastNumber: 0, forgottenThrough: 0,
        heartbeatMilliseconds: 100, updates: "inproc://u", schema: leader?.frame), now: now)
  }

  func logs(_ effects: [FollowerEffect]) -> [String] {
    effects.compactMap {
      if case .log(_, let message, _) = $0 { return message }
      return nil
    }
  }

  @Test("a follower says which of its actions the leader's schema lacks")
  func namesTheTagsTheLeaderLacks() {
    let effects = joined(
      V.schema(V.StateV1.self, V.v2Actions), welcome: V.schema(V.StateV1.self))
    #expect(
      logs(effects).contains { $0.contains("lacks this follower's actions reset") })
  }

  @Test("nothing to say when the leader knows every action, or sent no schema")
  func silentOtherwise() {
    #expect(
      logs(joined(V.schema(V.StateV1.self), welcome: V.schema(V.StateV2.self, V.v2Actions))).isEmpty
    )
    #expect(logs(joined(V.schema(V.StateV1.self, V.v2Actions), welcome: nil)).isEmpty)
  }
}
