import Testing

@testable import TandemProtocol
@testable import TandemSync

@Suite("A follower keeps to the limits its leader announces")
struct AnnouncedLimitTests {
  @Test(.timeLimit(.minutes(1)))
  func anActionLargerThanTheLeaderAcceptsIsRefusedAtSend() async throws {
    // Large enough for the follower's HELLO, which carries its schema.
    let leader = try await makeLeader { $0.maxMessageSize = 2048 }
    let follower = try await makeFollower(leader)
    #expect(throws: FollowerError.actionTooLarge(bytes: 2_114, limit: 2048)) {
      try follower.send(PaddedIncrement(padding: String(repeating: "x", count: 2_100)))
    }
    // A small one still goes, and the leader applied nothing else.
    _ = try await follower.send(PaddedIncrement(padding: "x")).applied()
    #expect(leader.store.state.counter == 1)
    await follower.stop()
    await leader.stop()
  }
}
