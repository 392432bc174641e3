
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("Large replies wait in a bounded queue", .serialized)
struct QueuedReplyTests {
  @Test func aPeerThatAsksForSnapshotsAndDoesNotReadIsSentOnlyWhatTheLeaderLetsWait()
    async throws
  {
    let directory = try LeaderDirectory()
    let control = directory.control
    let updates = directory.updates
    // A state of 256 KiB: four of its snapshots fit in the connection's 1 MiB.
    let large = TestState(title: String(repeating: "x", count: 256 << 10))
    let leader = try await makeLeader(state: large) {
      $0.control = control
      $0.updates = updates
      $0.maximumQueuedReplyBytes = 1 << 20
    }
    let client = RawClient(endpoint: leader.controlEndpoint, receiveHighWaterMark: 1)
    defer { client.close() }
    let asked = 40
    for _ in 0..<asked { try client.socket.send(parts: ControlRequest.snapshot.frames) }
    await eventually("the leader handled every request") {
      (try? await leader.statistics().counters["snapshotsServed"]) == asked
    }
    // Read now: every STATE the leader queued, then the PONG it sent after them.
    try client.socket.send(parts: ControlRequest.ping(client: "reader", sequence: 0).frames)
    var states = 0
    while let parts = try client.socket.receiveParts(wait: .timeout(.seconds(10))) {
      let reply = try ControlReply(frames: parts)
      if case .pong = reply { break }
      if case .state = reply { states += 1 }
    }
    // The 1 MiB, and what the kernel and the client's socket took off the connection.
    #expect(states >= 1)
    #expect(states < asked / 2)
    let dropped = try await leader.statistics().counters["messagesDropped"]
    #expect(dropped == asked - states)
    await leader.stop()
  }
}
