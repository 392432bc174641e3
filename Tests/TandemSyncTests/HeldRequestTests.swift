
import StatePatch
import Tandem
@testable import TandemProtocol
@testable import TandemSync
import Testing

extension ProtocolConformanceTests {
  @Test(.timeLimit(.minutes(2)))
  func aHelloTheControlSocketCouldNotQueueIsSentOnceItCan() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    // Limits no run reaches: only a HELLO held and sent again can bring the leader a HELLO on
    // this connection, not a reconnect or a resend after silence.
    let follower = try await join(
      leader, document: ["n": 0], silenceLimit: .seconds(120), resendAfter: .seconds(120))
    // The leader reads nothing, so the follower's queue and the TCP buffers fill up.
    let padding = JSONValue.string(String(repeating: "x", count: 2 << 10))
    for _ in 0..<5_000 { _ = try follower.send(tag: "set", payload: padding) }
    try await eventually("the control socket refused a send") {
      try await follower.statistics().sendsDeferred > 0
    }
    let connection = leader.follower
    // Action 1 is out of order: the follower says HELLO again, which its full queue refuses.
    try leader.reply(
      .reject(
        client: follower.clientID, number: 1,
        Rejection(code: .outOfOrder, message: "expected action 7")))
    try await eventually("the follower began to realign") {
      try await follower.statistics().realignments == 1
    }
    // Read on: the actions queued before it, then the HELLO, on the same connection.
    let hello = try await offThePool { () throws -> ControlRequest? in
      while let request = try leader.nextRequest(within: .seconds(60)) {
        if case .hello = request { return request }
      }
      return nil
    }
    #expect(hello != nil)
    #expect(leader.follower == connection)
    #expect(try await follower.statistics().reconnects == 0)
    await follower.stop()
  }
}
