
import Foundation
import StatePatch
import Synchronization
import Tandem
@testable import TandemProtocol
@testable import TandemSync
import Testing
import ZeroMQ

/// A leader played by the test: raw XPUB and ROUTER sockets speaking TSP/4 frame by frame, to
/// check what a follower does when the leader misbehaves.
final class ScriptedLeader: @unchecked Sendable {  // used by one thread at a time
  let context = Context()
  let updates: Socket
  let control: Socket
  let controlEndpoint: String
  let updatesEndpoint: String
  let epoch = Epoch(rawValue: 0xABCD)
  var follower: Frame = []

  init() throws {
    updates = try Socket(context, .xpub)
    try updates.set(.xpubVerbose, true)
    try updates.set(.linger, .zero)
    try updates.bind(Endpoint(parsing: "tcp://127.0.0.1:*")!)
    updatesEndpoint = try updates.lastEndpoint.description
    control = try Socket(context, .router)
    try control.set(.linger, .zero)
    try control.bind(Endpoint(parsing: "tcp://127.0.0.1:*")!)
    controlEndpoint = try control.lastEndpoint.description
  }

  /// The next request other than a `PING` (which a follower sends on its own timer), within
  /// `timeout`; nil when none came.
  func nextRequest(within timeout: Duration) throws -> ControlRequest? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      guard let parts = try control.receiveParts(wait: .timeout(deadline - ContinuousClock.now))
      else { return nil }
      follower = parts[0]
      let request = try ControlRequest(frames: Array(parts.dropFirst()))
      if case .ping = request { continue }
      return request
    }
    return nil
  }

  /// The next request other than a `PING`, within 30 s (a deadline for a follower that never
  /// asks, long enough for a loaded machine).
  func nextRequest() throws -> ControlRequest {
    guard let request = try nextRequest(within: .seconds(30)) else {
      throw ProtocolViolation("no request within 30 s")
    }
    return request
  }

  func reply(_ reply: ControlReply) throws {
    try control.send(parts: [follower] + reply.frames)
  }

  func publish(_ update: UpdateMessage) throws {
    try updates.send(parts: update.frames)
  }

  /// Plays the join until the follower has the snapshot `document`: answers each HELLO with
  /// WELCOME (a follower on a loaded machine may time out and say HELLO again) and keeps
  /// sending heartbeats, so a follower that has subscribed sees its first update.
  func admitFollower(document: JSONValue, sequence: UInt64) throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      while try updates.receiveParts(wait: .nonBlocking) != nil {}
      try publish(.heartbeat(epoch, sequence: sequence, stateHash: document.canonicalHash()))
      switch try nextRequest(within: .milliseconds(50)) {
      case .hello:
        try reply(
          .welcome(
            epoch, sequence: sequence, lastNumber: 0, forgottenThrough: 0,
            heartbeatMilliseconds: 100,
            updates: updatesEndpoint))
      case .snapshot:
        try reply(
          .state(
            epoch, sequence: sequence, stateHash: document.canonicalHash(),
            document: document.canonicalBytes()))
        return
      default:
        continue
      }
    }
    throw ProtocolViolation("the follower did not join within 20 s")
  }

  func close() {
    updates.close()
    control.close()
  }
}

@Suite("Protocol: a follower against a scripted leader", .serialized)
struct ProtocolConformanceTests {
  /// A follower joined to `leader`; silence is not under test unless a test says so, so the
  /// default limit is long enough for a machine busy with the rest of the suite.
  func join(
    _ leader: ScriptedLeader, document: JSONValue, silenceLimit: Duration = .seconds(30),
    resendAfter: Duration = .seconds(2)
  )
    async throws -> JSONFollower
  {
    var configuration = FollowerConfiguration(leader: leader.controlEndpoint)
    configuration.silenceLimit = silenceLimit
    configuration.resendAfter = resendAfter
    // The join timer runs on the follower's own thread from the moment it starts; it is no
    // part of these tests, so it is a deadline a loaded machine cannot reach.
    configuration.joinTimeout = .seconds(60)
    // The script's thread starts here, before the follower: an `async let` would first need a
    // thread of the cooperative pool (busy for seconds in the full run) just to start it,
    // while the follower's join timer was already running.
    let script = ThreadTask { try leader.admitFollower(document: document, sequence: 5) }
    let follower = try await JSONFollower(configuration: configuration)
    try await script.value
    return follower
  }

  /// The delta at `sequence` whose patch replaces the value at `path` with `value`.
  /// A follower joined at `{"n": 0}` that sent `set 1`, with its receipt, and the action as the
  /// leader received it: a `DISPATCH-QUIET`, as a follower in step with the updates sends.
  func joinAndSendQuietly(
    _ leader: ScriptedLeader
  ) async throws -> (JSONFollower, Receipt, ForwardedAction) {
    let follower = try await join(leader, document: ["n": 0])
    let receipt = try follower.send(tag: "set", payload: 1)
    let request = try await offThePool { try leader.nextRequest() }
    guard case .dispatchQuietly(let action) = request else {
      throw ProtocolViolation("expected DISPATCH-QUIET, got \(request)")
    }
    return (follower, receipt, action)
  }

  /// ``joinAndSendQuietly(_:)``, then delta 6, which does not apply to the replica: the
  /// follower asks for a snapshot.
  func sendQuietlyThenFailADelta(
    _ leader: ScriptedLeader
  ) async throws -> (JSONFollower, Receipt, ForwardedAction) {
    let sent = try await joinAndSendQuietly(leader)
    try leader.publish(.delta(leader.epoch, replacing(at: 6, "/missing", with: 1)))
    let request = try await offThePool { try leader.nextRequest() }
    guard request == .snapshot else { throw ProtocolViolation("expected SNAPSHOT, got \(request)") }
    return sent
  }

  /// Acknowledges `action` at sequence 6 and expects its receipt to stay unresolved once the
  /// follower has taken the ACK (the replica does not show 6).
  func acknowledgeAndExpectTheReceiptToWait(
    _ leader: ScriptedLeader, _ follower: JSONFollower, _ receipt: Receipt,
    _ action: ForwardedAction
  ) async throws {
    try leader.reply(.ack(client: action.client, number: action.number, leader.epoch, sequence: 6))
    try await eventually("the follower took the ACK") {
      try await follower.statistics().unanswered == 0
    }
    #expect(receipt.outcome == nil)
  }

  func replacing(at sequence: UInt64, _ path: String, with value: Int) -> Delta {
    Delta(
      sequence: sequence, origin: .leader, tag: "set",
      patch: Array(#"[{"op":"replace","path":"\#(path)","value":\#(value)}]"#.utf8))
  }

  @Test func aHeartbeatWithAnotherStateHashForcesAResync() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["counter": 1])
    #expect(follower.store.state == ["counter": 1])
    try leader.publish(.heartbeat(leader.epoch, sequence: 5, stateHash: 12345))
    let request = try await offThePool { try leader.nextRequest() }
    #expect(request == .snapshot)
    let fixed: JSONValue = ["counter": 2]
    try leader.reply(
      .state(
        leader.epoch, sequence: 5, stateHash: fixed.canonicalHash(),
        document: fixed.canonicalBytes()))
    await eventually("the replica takes the leader's state") {
      follower.store.state == ["counter": 2]
    }
    #expect(try await follower.statistics().hashMismatches == 1)
    await follower.stop()
  }

  @Test func aSilentLeaderIsNoticedAndTheFollowerRejoins() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["counter": 1], silenceLimit: .seconds(3))
    // Say nothing: within the silence limit (3 s) the follower says HELLO again.
    let started = ContinuousClock.now
    let request = try await offThePool { try leader.nextRequest(within: .seconds(10)) }
    guard case .hello = request else {
      Issue.record("expected HELLO, got \(String(describing: request))")
      return
    }
    #expect(ContinuousClock.now - started < .seconds(10))
    #expect(try await follower.statistics().reconnects >= 1)
    await follower.stop()
  }

  @Test func aGapIsAskedForWithCatchUpAndFilledInOrder() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["n": 0])
    func delta(_ sequence: UInt64, _ value: Int) -> Delta {
      replacing(at: sequence, "/n", with: value)
    }
    try leader.publish(.delta(leader.epoch, delta(6, 6)))
    try leader.publish(.delta(leader.epoch, delta(8, 8)))
    let request = try await offThePool { try leader.nextRequest() }
    #expect(request == .catchUp(leader.epoch, from: 7))
    try leader.reply(.deltas(leader.epoch, [delta(7, 7), delta(8, 8)]))
    await eventually("the replica is at 8") { follower.store.state == ["n": 8] }
    #expect(try await follower.statistics().gapsRepaired == 1)
    await follower.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func theDeltaOfTheFollowersOwnActionResolvesItsReceiptWithoutTheAck() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    // A follower in step with the updates asks for no ACK.
    let (follower, receipt, action) = try await joinAndSendQuietly(leader)
    #expect(action.client == follower.clientID)
    var delta = replacing(at: 6, "/n", with: 1)
    delta.actions[0].origin = Origin(client: action.client, number: action.number)
    try leader.publish(.delta(leader.epoch, delta))
    // No ACK is ever sent.
    #expect(try await receipt.applied() == 6)
    #expect(follower.store.state == ["n": 1])
    await follower.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func anActionSentQuietlyIsSentAgainWhenASnapshotMayHoldItsUnseenDelta() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    // The timed resend is out of reach: only the snapshot can prompt the second send.
    let follower = try await join(leader, document: ["n": 0], resendAfter: .seconds(120))
    let receipt = try follower.send(tag: "set", payload: 1)
    let first = try await offThePool { try leader.nextRequest() }
    guard case .dispatchQuietly(let action) = first else {
      Issue.record("expected DISPATCH-QUIET, got \(first)")
      return
    }
    // The action's delta (6) is lost, and the history no longer reaches back to it.
    try leader.publish(.heartbeat(leader.epoch, sequence: 6, stateHash: 0))
    #expect(try await offThePool { try leader.nextRequest() } == .catchUp(leader.epoch, from: 6))
    try leader.reply(.stale(leader.epoch, sequence: 6))
    #expect(try await offThePool { try leader.nextRequest() } == .snapshot)
    let withAction: JSONValue = ["n": 1]
    try leader.reply(
      .state(
        leader.epoch, sequence: 6, stateHash: withAction.canonicalHash(),
        document: withAction.canonicalBytes()))
    // The snapshot may or may not hold the action: it comes again, and as a duplicate it gets
    // the ACK a quiet dispatch of an applied action does not.
    let again = try await offThePool { try leader.nextRequest() }
    #expect(again == .dispatchQuietly(action) || again == .dispatch(action))
    try leader.reply(.ack(client: action.client, number: action.number, leader.epoch, sequence: 6))
    #expect(try await receipt.applied() == 6)
    #expect(follower.store.state == withAction)
    await follower.stop()
  }

  @Test func aDeltaThatDoesNotApplyAmidOthersForcesAResyncAndChangesNothing() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["n": 0])
    func delta(_ sequence: UInt64, _ path: String) -> Delta {
      replacing(at: sequence, path, with: Int(sequence))
    }
    // A replica without subscribers applies deltas that arrive together as one change; the
    // second of these does not apply (no member "missing").
    try leader.publish(.delta(leader.epoch, delta(7, "/n")))
    let request = try await offThePool { try leader.nextRequest() }
    #expect(request == .catchUp(leader.epoch, from: 6))
    try leader.reply(.deltas(leader.epoch, [delta(6, "/n"), delta(7, "/missing"), delta(8, "/n")]))
    let resync = try await offThePool { try leader.nextRequest() }
    #expect(resync == .snapshot)
    #expect(follower.store.state == ["n": 0])
    let fixed: JSONValue = ["n": 8]
    try leader.reply(
      .state(
        leader.epoch, sequence: 8, stateHash: fixed.canonicalHash(),
        document: fixed.canonicalBytes()))
    await eventually("the replica takes the leader's state") { follower.store.state == fixed }
    #expect(try await follower.statistics().applyFailures == 1)
    await follower.stop()
  }
}

extension ProtocolConformanceTests {
  @Test func theControlConnectionHasARoutingIDOfItsOwn() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["n": 0])
    // Not one ZeroMQ made up (those are 5 bytes beginning with 0), which a reconnect would
    // change: one the follower chose, which ZeroMQ's reconnects keep.
    #expect(leader.follower.count == 16)
    #expect(leader.follower.first != 0)
    await follower.stop()
  }

  @Test func anAcknowledgementWaitsForTheResyncAfterADeltaThatDidNotApply() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let (follower, receipt, action) = try await sendQuietlyThenFailADelta(leader)
    // The action's ACK, at 6, arrives before the snapshot: the replica does not show 6 yet.
    try await acknowledgeAndExpectTheReceiptToWait(leader, follower, receipt, action)
    let withAction: JSONValue = ["n": 1]
    try leader.reply(
      .state(
        leader.epoch, sequence: 6, stateHash: withAction.canonicalHash(),
        document: withAction.canonicalBytes()))
    #expect(try await receipt.applied() == 6)
    #expect(follower.store.state == withAction)
    await follower.stop()
  }

  @Test func aReplicaThatMissedADeltaTakesASnapshotEvenAfterRejoiningTheSameEpoch() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let (follower, receipt, action) = try await sendQuietlyThenFailADelta(leader)
    // No snapshot comes: the leader says goodbye, and the follower joins again, in the same
    // epoch, where delta 7 would apply to its replica, which lacks delta 6.
    try leader.publish(.bye(leader.epoch, sequence: 6))
    guard case .hello = try await offThePool({ try leader.nextRequest() }) else {
      Issue.record("expected the follower to say HELLO again")
      return
    }
    try leader.reply(
      .welcome(
        leader.epoch, sequence: 6, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
        updates: leader.updatesEndpoint))
    // The follower sends its unanswered action again; what else does it ask for?
    let seven = replacing(at: 7, "/n", with: 7)
    let request = try await offThePool { () throws -> ControlRequest? in
      let deadline = ContinuousClock.now + .seconds(20)
      while ContinuousClock.now < deadline {
        try leader.publish(.delta(leader.epoch, seven))
        switch try leader.nextRequest(within: .milliseconds(50)) {
        case nil, .dispatch?, .dispatchQuietly?: continue
        case let request?: return request
        }
      }
      return nil
    }
    #expect(request == .snapshot)
    try await acknowledgeAndExpectTheReceiptToWait(leader, follower, receipt, action)
    await follower.stop()
  }
}

@Suite("Bad input never hurts the leader", .serialized)
struct LeaderBadInputTests {
  @Test func garbageTruncatedAndUnknownRequestsGetErrorsAndTheLeaderServesOn() async throws {
    let leader = try await makeLeader()
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let garbage: [[Frame]] = [
      [[0xFF, 0xFE, 0x00]],
      [Array("HELLO".utf8)],
      [Array("CATCHUP".utf8), [1, 2, 3]],
      [Array("DISPATCH".utf8), Array("c".utf8), Frame(bigEndian: 1)],
      [Array("FROBNICATE".utf8)],
      [Array("PING".utf8), [0xC3, 0x28], Frame(bigEndian: 1)],
    ]
    for frames in garbage {
      try client.socket.send(parts: frames)
      let reply = try ControlReply(
        frames: try #require(try client.socket.receiveParts(wait: .timeout(.seconds(5)))))
      guard case .error(let code, _) = reply else {
        Issue.record("expected ERROR for \(frames), got \(reply)")
        continue
      }
      #expect(code == .malformed || code == .unknownCommand)
    }
    #expect(
      try client.request(.hello(version: "TSP/9", client: "x", fingerprint: "*"))
        == .error(
          code: .version,
          message:
            "this leader speaks \(ControlRequest.version), not TSP/9: run the follower with a"
            + " Tandem release that speaks \(ControlRequest.version)"))
    let follower = try await makeFollower(leader)
    _ = try await follower.send(Increment()).applied()
    let statistics = try await leader.statistics()
    #expect(statistics.counters["malformedRequests"] == garbage.count)
    await follower.stop()
    await leader.stop()
  }

  @Test func anOversizedMessageIsRefusedAndTheLeaderServesOn() async throws {
    let leader = try await makeLeader { $0.maxMessageSize = 1024 }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let huge = ForwardedAction(
      client: "big", number: 1, tag: "test.title",
      payload: Array(#"{"title":"\#(String(repeating: "x", count: 4096))"}"#.utf8))
    try client.socket.send(parts: ControlRequest.dispatch(huge).frames)
    #expect(try client.socket.receiveParts(wait: .timeout(.milliseconds(300))) == nil)
    let follower = try await makeFollower(leader)
    _ = try await follower.send(Increment()).applied()
    #expect(leader.store.state.title == "tandem")
    #expect(leader.store.state.counter == 1)
    await follower.stop()
    await leader.stop()
  }
}

/// Runs blocking `body` on a thread of its own, never on Swift's cooperative pool.
func offThePool<Result: Sendable>(
  _ body: @escaping @Sendable () throws -> Result
) async throws
  -> Result
{
  try await ThreadTask(body).value
}

/// Blocking work started at once on a thread of its own, whose result can be awaited.
final class ThreadTask<Value: Sendable>: Sendable {
  private let state = Mutex<(Result<Value, any Error>?, CheckedContinuation<Value, any Error>?)>(
    (nil, nil))

  init(_ body: @escaping @Sendable () throws -> Value) {
    Thread { [self] in
      let result = Result { try body() }
      let waiter = self.state.withLock { state in
        state.0 = result
        return state.1
      }
      waiter?.resume(with: result)
    }.start()
  }

  var value: Value {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        let result = state.withLock { state in
          if state.0 == nil { state.1 = continuation }
          return state.0
        }
        if let result { continuation.resume(with: result) }
      }
    }
  }
}
