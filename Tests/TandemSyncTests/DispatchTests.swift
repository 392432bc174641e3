
import Foundation
import StatePatch
import Tandem
@testable import TandemProtocol
@testable import TandemSync
import Testing
import ZeroMQ

@Suite("Dispatch: actions flow from followers to the leader, exactly once", .serialized)
struct DispatchTests {
  @Test func concurrentSendersOnSeveralFollowersAreAppliedOnceInOrder() async throws {
    let leader = try await makeLeader()
    var followers: [Follower<TestState>] = []
    for _ in 0..<3 { followers.append(try await makeFollower(leader)) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for follower in followers {
        for sender in 0..<2 {
          group.addTask {
            let client = "\(follower.clientID)-\(sender)"
            for value in 0..<150 {
              let sequence = try await follower.send(Record(client: client, value: value)).applied()
              // Read-your-writes: the replica shows the action once its receipt resolves.
              #expect(follower.store.state.log[client]?.last == value)
              #expect(try await follower.statistics().sequence >= sequence)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let log = leader.store.state.log
    #expect(log.count == 6)
    for (client, values) in log {
      #expect(values == Array(0..<150), "\(client) applied \(values.count) actions")
    }
    for follower in followers {
      await eventually("every replica equals the leader") {
        follower.store.state == leader.store.state
      }
      await follower.stop()
    }
    await leader.stop()
  }

  @Test func plainDispatchIsForwardedToo() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    for _ in 0..<20 { follower.store.dispatch(Increment(by: 2)) }
    await eventually("the leader applied 20 increments") { leader.store.state.counter == 40 }
    await eventually("the replica shows them") { follower.store.state.counter == 40 }
    await follower.stop()
    await leader.stop()
  }

  @Test func aTaskOnTheFollowersExecutorSendsAndResumesOnItsIOThread() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    let json = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    let threads = try await withTaskExecutorPreference(follower.executor) {
      var threads: Set<String> = []
      for value in 0..<50 {
        _ = try await follower.send(Record(client: "on-loop", value: value)).applied()
        threads.insert(currentThreadName())
        // Read-your-writes holds on the thread that applied the delta.
        #expect(follower.store.state.log["on-loop"]?.last == value)
      }
      _ = try await follower.statistics()
      threads.insert(currentThreadName())
      return threads
    }
    #expect(threads == ["tandem-follower"])
    let counter = try await withTaskExecutorPreference(json.executor) {
      _ = try await json.send(tag: "test.increment", payload: ["by": 3]).applied()
      return json.store.state[pointer: "/counter"]
    }
    #expect(counter == 3)
    // Stopping from the follower's own thread ends its loop and still returns.
    await withTaskExecutorPreference(json.executor) { await json.stop() }
    await follower.stop()
    await leader.stop()
  }

  @Test func everyRejectionReasonReachesTheSender() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    let json = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))

    func rejection(_ receipt: Receipt) async -> Rejection.Code? {
      do {
        _ = try await receipt.applied()
        return nil
      } catch {
        guard case .rejected(let rejection) = error else { return nil }
        return rejection.code
      }
    }
    #expect(await rejection(try follower.send(Forbidden())) == .refused)
    #expect(await rejection(try follower.send(Swallowed())) == .refused)
    #expect(await rejection(try json.send(tag: "no.such.tag", payload: [:])) == .unknownTag)
    #expect(
      await rejection(try json.send(tag: "test.increment", payload: ["by": "many"])) == .undecodable
    )
    // A rejected action uses its number up: the next one applies.
    #expect(try await json.send(tag: "test.increment", payload: ["by": 5]).applied() > 0)
    #expect(try await follower.send(Increment()).applied() > 0)
    #expect(leader.store.state.counter == 6)
    #expect(throws: FollowerError.self) { try follower.send(NotRegistered()) }
    await json.stop()
    await follower.stop()
    await leader.stop()
  }

  @Test func theLeaderAppliesOnlyTheNextNumberAndAnswersDuplicates() async throws {
    let leader = try await makeLeader()
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    func dispatch(_ number: UInt64) throws -> ControlReply {
      try client.request(
        .dispatch(
          ForwardedAction(
            client: "raw", number: number, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8))
        ))
    }
    guard case .ack(_, 1, _, let first) = try dispatch(1) else {
      Issue.record("expected an ACK")
      return
    }
    #expect(try dispatch(1) == .ack(client: "raw", number: 1, leader.epoch, sequence: first))
    guard case .reject(_, 3, let gap) = try dispatch(3) else {
      Issue.record("expected a REJECT")
      return
    }
    #expect(gap.code == .outOfOrder)
    guard case .ack(_, 2, _, _) = try dispatch(2) else {
      Issue.record("expected an ACK")
      return
    }
    guard case .ack = try dispatch(3) else {
      Issue.record("expected an ACK")
      return
    }
    #expect(leader.store.state.counter == 3)
    await leader.stop()
  }

  @Test func anActionWithAnEmptyClientIDIsMalformedAndNotApplied() async throws {
    let leader = try await makeLeader()
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    // The empty client id is the leader's own origin: no follower's action may claim it.
    let reply = try client.request(
      .dispatch(
        ForwardedAction(
          client: "", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8))))
    #expect(leader.store.state.counter == 0)
    #expect(leader.sequence == 0)
    guard case .error(let code, _) = reply else {
      Issue.record("expected ERROR malformed, got \(reply)")
      await leader.stop()
      return
    }
    #expect(code == .malformed)
    await leader.stop()
  }

  @Test func aRejectionsMessageIsCutToItsBoundInTheReplyAndTheLedger() async throws {
    // A message of 1 MiB, in characters of two bytes: the cut falls on a character.
    let long = String(repeating: "é", count: 1 << 19)
    let leader = try await makeLeader {
      $0.validate = { action, _ in
        action is Forbidden ? Rejection(code: .refused, message: long) : nil
      }
    }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let forbidden = ForwardedAction(
      client: "c", number: 1, tag: "test.forbidden", payload: Array("{}".utf8))
    guard case .reject(_, 1, let rejection) = try client.request(.dispatch(forbidden)) else {
      Issue.record("expected the action to be rejected")
      await leader.stop()
      return
    }
    #expect(rejection.message.utf8.count <= Rejection.maximumMessageBytes)
    #expect(rejection.message == String(repeating: "é", count: 510) + "…")
    let kept = try await leader.statistics()
    #expect(kept.counters["actionsRejected"] == 1)
    #expect(try client.request(.dispatch(forbidden)) == .reject(client: "c", number: 1, rejection))
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aValidationThatAnswersOutOfOrderRefusesTheActionAndUsesItsNumberUp() async throws {
    let leader = try await makeLeader {
      $0.validate = { action, _ in
        action is Forbidden ? Rejection(code: .outOfOrder, message: "not now") : nil
      }
    }
    let follower = try await makeFollower(leader)
    await #expect(throws: FollowerError.rejected(Rejection(code: .refused, message: "not now"))) {
      try await follower.send(Forbidden()).applied()
    }
    #expect(try await follower.send(Increment()).applied() == 1)
    #expect(try await follower.statistics().realignments == 0)
    await follower.stop()
    await leader.stop()
  }

  @Test(arguments: ["", String(repeating: "x", count: 257)])
  func aFollowerRefusesAClientIDTheProtocolDoesNotAllow(clientID: String) async throws {
    let leader = try await makeLeader()
    await #expect(throws: FollowerError.invalidClientID(clientID)) {
      try await makeFollower(leader) { $0.clientID = clientID }
    }
    await leader.stop()
  }

  @Test func aQuietDispatchIsAnsweredOnlyWhenItIsNotApplied() async throws {
    let leader = try await makeLeader()
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    func quietly(_ number: UInt64, tag: String = "test.increment") throws {
      try client.socket.send(
        parts: ControlRequest.dispatchQuietly(
          ForwardedAction(
            client: "quiet", number: number, tag: tag, payload: Array(#"{"by":1}"#.utf8))
        ).frames)
    }
    /// The reply to the requests sent so far, skipping the PONG that ends them.
    func replies() throws -> [ControlReply] {
      var replies: [ControlReply] = []
      try client.socket.send(parts: ControlRequest.ping(client: "quiet", sequence: 0).frames)
      while true {
        guard let parts = try client.socket.receiveParts(wait: .timeout(.seconds(5))) else {
          throw ProtocolViolation("no PONG within 5 s")
        }
        let reply = try ControlReply(frames: parts)
        if case .pong = reply { return replies }
        replies.append(reply)
      }
    }
    // Applied: no reply (a follower learns it from the delta, which names the origin).
    try quietly(1)
    #expect(try replies() == [])
    #expect(leader.store.state.counter == 1)
    let applied = try await leader.statistics().sequence
    // A duplicate, a gap and a rejection are answered as for DISPATCH.
    try quietly(1)
    try quietly(3)
    try quietly(2, tag: "no.such.tag")
    let answers = try replies()
    guard answers.count == 3, case .reject(_, 3, let gap) = answers[1],
      case .reject(_, 2, let unknown) = answers[2]
    else {
      Issue.record("expected ACK, REJECT, REJECT; got \(answers)")
      return
    }
    #expect(answers[0] == .ack(client: "quiet", number: 1, leader.epoch, sequence: applied))
    #expect(gap.code == .outOfOrder)
    #expect(unknown.code == .unknownTag)
    #expect(leader.store.state.counter == 1)
    await leader.stop()
  }

  @Test func aFullOutboxRefusesAtOnce() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader) { $0.outboxCapacity = 3 }
    await leader.stop()
    for _ in 0..<3 { _ = try follower.send(Increment()) }
    #expect(throws: FollowerError.outboxFull(capacity: 3)) { try follower.send(Increment()) }
    await follower.stop()
  }

  @Test func anActionTooLargeForTheLeaderIsRefusedAtOnce() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader) { $0.maxActionSize = 100 }
    let padding = String(repeating: "x", count: 100)
    #expect(throws: FollowerError.actionTooLarge(bytes: 114, limit: 100)) {
      try follower.send(PaddedIncrement(padding: padding))
    }
    _ = try await follower.send(Increment()).applied()
    #expect(leader.store.state.counter == 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func unansweredActionsAreResentAfterAReconnectAndAppliedOnce() async throws {
    let directory = try LeaderDirectory()
    let control = directory.control
    let updates = directory.updates
    let leader = try await makeLeader {
      $0.control = control
      $0.updates = updates
    }
    let follower = try await makeFollower(leader)
    var receipts: [Receipt] = []
    for value in 0..<200 {
      receipts.append(try follower.send(Record(client: "burst", value: value)))
      if value == 100 { try await follower.forceReconnect() }
    }
    for receipt in receipts { _ = try await receipt.applied() }
    #expect(leader.store.state.log["burst"] == Array(0..<200))
    await follower.stop()
    await leader.stop()
  }

  @Test func aRestartedFollowerWithAStableIDContinuesItsNumbering() async throws {
    let leader = try await makeLeader()
    let first = try await makeFollower(leader) { $0.clientID = "stable" }
    for value in 0..<5 {
      _ = try await first.send(Record(client: "stable", value: value)).applied()
    }
    await first.stop()
    let second = try await makeFollower(leader) { $0.clientID = "stable" }
    _ = try await second.send(Record(client: "stable", value: 5)).applied()
    #expect(leader.store.state.log["stable"] == Array(0..<6))
    await second.stop()
    await leader.stop()
  }
}

struct NotRegistered: Action, Codable {}

/// A bare DEALER speaking the control protocol, for tests at the protocol level.
final class RawClient {
  let context = Context()
  let socket: Socket

  /// A DEALER connected to `endpoint`, with its own `routingID` if given, and a receive
  /// high-water mark of `receiveHighWaterMark` messages (ZeroMQ's default when nil): with 1,
  /// a client that does not read soon stops taking replies off the connection.
  init(endpoint: String, routingID: [UInt8]? = nil, receiveHighWaterMark: Int32? = nil) {
    socket = try! Socket(context, .dealer)
    try! socket.set(.linger, .zero)
    if let routingID { try! socket.set(.routingID, routingID) }
    if let receiveHighWaterMark { try! socket.set(.receiveHighWaterMark, receiveHighWaterMark) }
    try! socket.connect(Endpoint(parsing: endpoint)!)
  }

  /// Sends `request` and waits (at most 5 s) for the reply.
  func request(_ request: ControlRequest) throws -> ControlReply {
    try socket.send(parts: request.frames)
    guard let parts = try socket.receiveParts(wait: .timeout(.seconds(5))) else {
      throw ProtocolViolation("no reply within 5 s")
    }
    return try ControlReply(frames: parts)
  }

  func close() {
    socket.close()
  }
}

@Suite("Dispatch from a superseded connection", .serialized)
struct SupersededConnectionTests {
  @Test func actionsFromAConnectionReplacedByANewHelloAreRefused() async throws {
    let leader = try await makeLeader()
    let fingerprint = leader.fingerprint
    let old = RawClient(endpoint: leader.controlEndpoint)
    let new = RawClient(endpoint: leader.controlEndpoint)
    defer {
      old.close()
      new.close()
    }
    func increment(_ number: UInt64) -> ControlRequest {
      .dispatch(
        ForwardedAction(
          client: "same", number: number, tag: "test.increment",
          payload: Array(#"{"by":1}"#.utf8)))
    }
    _ = try old.request(
      .hello(version: ControlRequest.version, client: "same", fingerprint: fingerprint))
    _ = try new.request(
      .hello(version: ControlRequest.version, client: "same", fingerprint: fingerprint))
    // An action on the old connection, after the new one said hello: refused, unapplied.
    guard case .error(.superseded, _) = try old.request(increment(1)) else {
      Issue.record("expected the old connection's action to be refused as superseded")
      return
    }
    let reply = try new.request(increment(1))
    guard case .ack(_, 1, _, _) = reply else {
      Issue.record("expected the new connection's action 1 to be applied, got \(reply)")
      return
    }
    #expect(try await leader.statistics().counters["supersededDispatches"] == 1)
    #expect(leader.store.state.counter == 1)
    await leader.stop()
  }

  @Test func aConnectionThatZeroMQReconnectedKeepsItsClientID() async throws {
    let leader = try await makeLeader { $0.maxMessageSize = 1024 }
    let client = RawClient(endpoint: leader.controlEndpoint, routingID: Array("connection-1".utf8))
    defer { client.close() }
    _ = try client.request(
      .hello(version: ControlRequest.version, client: "kept", fingerprint: leader.fingerprint))
    // A message over the leader's limit: the leader closes the connection, and ZeroMQ connects
    // again by itself, under the same routing id, without a HELLO.
    let oversized = ControlRequest.ping(client: String(repeating: "x", count: 4096), sequence: 0)
    try client.socket.send(parts: oversized.frames)
    // Sent until it gets through the new connection (one sent into the closing one is lost).
    let action = ControlRequest.dispatch(
      ForwardedAction(
        client: "kept", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8)))
    var reply: ControlReply?
    for _ in 0..<40 where reply == nil {
      try client.socket.send(parts: action.frames)
      reply = try client.socket.receiveParts(wait: .timeout(.milliseconds(250))).map {
        try ControlReply(frames: $0)
      }
    }
    guard case .ack(_, 1, _, _) = try #require(reply) else {
      Issue.record("expected the action to be applied, got \(String(describing: reply))")
      return
    }
    #expect(try await leader.statistics().counters["supersededDispatches"] == 0)
    await leader.stop()
  }
}

/// The name of the calling thread, from `/proc` (Linux; at most 15 bytes).
private func currentThreadName() -> String {
  let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
  return name?.trimmingCharacters(in: .newlines) ?? "unknown"
}
