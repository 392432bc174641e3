import StatePatch
import Testing

@testable import TandemSync

extension ProtocolConformanceTests {
  @Test func aSnapshotThatDoesNotDecodeLeavesTheReplicaAndItsBufferedDeltasAlone() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["n": 0])
    try leader.publish(.heartbeat(leader.epoch, sequence: 5, stateHash: 12345))
    #expect(try await offThePool { try leader.nextRequest() } == .snapshot)
    // Delta 6 follows the snapshot to come, so the follower buffers it. The two sockets are
    // separate connections: a delta that arrived only after the snapshot would make this test
    // pass without checking anything, never fail, so it waits a moment for it.
    try leader.publish(.delta(leader.epoch, replacing(at: 6, "/n", with: 1)))
    try await Task.sleep(for: .milliseconds(200))
    try leader.reply(
      .state(leader.epoch, sequence: 5, stateHash: 1, document: Array("not JSON".utf8)))
    // The follower asks again, and its replica never took delta 6 onto the old state.
    #expect(try await offThePool { try leader.nextRequest() } == .snapshot)
    // A job on the follower's loop runs after the handling that asked again has finished.
    _ = try await follower.statistics()
    #expect(follower.store.state == ["n": 0])
    await follower.stop()
  }
}
