import Dispatch
import Synchronization
import Tandem
import Testing

@testable import TandemProtocol
@testable import TandemSync

@Suite(
  "Dispatch: a follower realigns its numbering and retries what it could not send", .serialized)
struct RealignmentTests {
  @Test func anEvictedClientSaysHelloAgainAndItsNextActionIsApplied() async throws {
    let leader = try await makeLeader { $0.ledgerIdleLimit = 3 }
    let follower = try await makeFollower(leader)
    _ = try await follower.send(Increment()).applied()
    // Five sequences later the leader forgets the follower (idle for more than 3): it expects
    // action number 1 again, while the follower's next number is 2.
    for _ in 0..<5 { leader.store.dispatch(Increment()) }
    await eventually("the replica shows the leader's increments") {
      follower.store.state.counter == 6
    }
    let receipt = try follower.send(Increment())
    let applied = await eventually("the leader applied the follower's action") {
      leader.store.state.counter == 7
    }
    if applied { _ = try await receipt.applied() }
    #expect(try await follower.statistics().realignments == 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func aForgottenClientsRejectionsAreForgottenWithIt() async throws {
    let leader = try await makeLeader { $0.ledgerIdleLimit = 3 }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    func dispatch(_ tag: String, _ payload: String = "{}") throws -> ControlReply {
      try client.request(
        .dispatch(
          ForwardedAction(client: "idle", number: 1, tag: tag, payload: Array(payload.utf8))))
    }
    guard case .reject = try dispatch("test.forbidden") else {
      Issue.record("expected the forbidden action to be rejected")
      return
    }
    for _ in 0..<5 { leader.store.dispatch(Increment()) }
    try await eventually("the leader published its increments, forgetting the idle client") {
      try await leader.statistics().sequence == 5
    }
    // Numbered from 1 again, the client's new action 1 is applied, and so answered when sent
    // again: not with the rejection of the forgotten action 1.
    guard case .ack(_, 1, _, let sequence) = try dispatch("test.increment", #"{"by":1}"#) else {
      Issue.record("expected the new action 1 to be applied")
      return
    }
    #expect(
      try dispatch("test.increment", #"{"by":1}"#)
        == .ack(client: "idle", number: 1, leader.epoch, sequence: sequence))
    #expect(leader.store.state.counter == 6)
    await leader.stop()
  }

  @Test func theWelcomeSaysHowRecentlyTheForgottenClientsWereActiveAcrossARestart()
    async throws
  {
    let directory = try LeaderDirectory()
    let path = directory.journal
    func forgottenThrough(_ leader: Leader<TestState>) throws -> UInt64? {
      let client = RawClient(endpoint: leader.controlEndpoint)
      defer { client.close() }
      let reply = try client.request(
        .hello(version: ControlRequest.version, client: "asking", fingerprint: leader.fingerprint))
      guard case .welcome(_, _, _, let forgottenThrough, _, _, _, _, _) = reply else { return nil }
      return forgottenThrough
    }
    let leader = try await makeLeader {
      $0.ledgerIdleLimit = 3
      $0.journalPath = path
    }
    #expect(try forgottenThrough(leader) == 0)
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let increment = ForwardedAction(
      client: "idle", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8))
    guard case .ack(_, 1, _, 1) = try client.request(.dispatch(increment)) else {
      Issue.record("expected the action to be applied at sequence 1")
      return
    }
    for _ in 0..<5 { leader.store.dispatch(Increment()) }
    try await eventually("the leader published its increments, forgetting the idle client") {
      try await leader.statistics().sequence == 6
    }
    // Forgotten, the client was last active at 1: an action it sent while its replica was
    // below 1 may have been applied; one sent at 1 or later was not (it would still be known).
    #expect(try forgottenThrough(leader) == 1)
    await leader.stop()
    let restarted = try await makeLeader { $0.journalPath = path }
    #expect(try forgottenThrough(restarted) == 1)
    await restarted.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aFollowerWhoseClientIDAnotherProcessTookOverStops() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader) { $0.clientID = "taken" }
    // Another process says HELLO with the same client id: the follower's connection no longer
    // owns it, so its next action is refused as superseded, and it stops rather than mix two
    // numberings.
    let other = RawClient(endpoint: leader.controlEndpoint)
    defer { other.close() }
    _ = try other.request(
      .hello(version: ControlRequest.version, client: "taken", fingerprint: leader.fingerprint))
    let receipt = try follower.send(Increment())
    do {
      let sequence = try await receipt.applied()
      Issue.record("expected the action to be refused, but it was applied at \(sequence)")
    } catch {
      guard case .refused(.superseded, _) = error else { throw error }
    }
    // Stopped, it refuses what is sent later, for the same reason.
    #expect { try follower.send(Increment()) } throws: { error in
      guard case .refused(.superseded, _) = error as? FollowerError else {
        return false
      }
      return true
    }
    #expect(leader.store.state.counter == 0)
    #expect(try await leader.statistics().counters["supersededDispatches"] == 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func sendsTheControlSocketCouldNotQueueAreRetried() async throws {
    // The leader's loop stops in the validation of the first action, so its queues and the TCP
    // buffers fill up and the follower's control socket refuses further sends for a while.
    let gate = DispatchSemaphore(value: 0)
    let firstValidation = Mutex(true)
    let leader = try await makeLeader {
      $0.validate = { _, _ in
        if firstValidation.withLock({ first in
          defer { first = false }; return first
        }) {
          _ = gate.wait(timeout: .now() + .seconds(30))
        }
        return nil
      }
    }
    // Long limits, so that neither a reconnect nor a resend after silence sends them instead.
    let follower = try await makeFollower(leader) {
      $0.silenceLimit = .seconds(120)
      $0.resendAfter = .seconds(120)
    }
    let padding = String(repeating: "x", count: 2 << 10)
    let count = 5_000
    for _ in 0..<count { _ = try follower.send(PaddedIncrement(padding: padding)) }
    try await eventually("the control socket refused a send") {
      try await follower.statistics().sendsDeferred > 0
    }
    gate.signal()
    await eventually(
      "the leader applied every action, the deferred ones included", timeout: .seconds(60)
    ) {
      leader.store.state.counter == count
    }
    #expect(try await follower.statistics().reconnects == 0)
    await follower.stop()
    await leader.stop()
  }
}
