import StatePatch
import Testing

@testable import TandemSync

extension ProtocolConformanceTests {
  @Test func aSnapshotThatDoesNotDecodeLeavesTheReplicaAndItsBufferedDeltasAlone() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await join(leader, document: ["n": 0])
    // Delta 7 after 5: the follower buffers it and asks for 6 on. Its CATCHUP shows the delta
    // is buffered; the answer that the backlog no longer reaches makes it ask for a snapshot.
    try leader.publish(.delta(leader.epoch, replacing(at: 7, "/n", with: 1)))
    #expect(try await offThePool { try leader.nextRequest() } == .catchUp(leader.epoch, from: 6))
    try leader.reply(.stale(leader.epoch, sequence: 7))
    #expect(try await offThePool { try leader.nextRequest() } == .snapshot)
    // A snapshot at 6 that does not decode: delta 7, buffered for it, must not touch the old
    // replica.
    try leader.reply(
      .state(leader.epoch, sequence: 6, stateHash: 1, document: Array("not JSON".utf8)))
    #expect(try await offThePool { try leader.nextRequest() } == .snapshot)
    // A job on the follower's loop runs after the handling that asked again has finished.
    _ = try await follower.statistics()
    #expect(follower.store.state == ["n": 0])
    await follower.stop()
  }
}
