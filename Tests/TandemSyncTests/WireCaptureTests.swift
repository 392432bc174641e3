import Testing

@testable import TandemSync

/// What someone on the network between a leader and a follower sees: the bytes of both
/// connections, recorded by a TCP relay between them.
@Suite("Security: the bytes on the wire", .timeLimit(.minutes(1)))
struct WireCaptureTests {
  static let secret = "wire-secret-7f3a9c"

  /// Runs a follower through two relays (control and updates) to a leader, with or without
  /// keys, dispatches a title holding ``secret`` and returns every byte the relays passed.
  private func capture(curve: Bool) async throws -> [UInt8] {
    let keys = try KeyFixture()
    try keys.key("alice")
    let control = try TCPRelay()
    let updates = try TCPRelay()
    let leader = try await makeLeader(state: TestState(title: "before \(Self.secret)")) {
      if curve { $0.security = keys.leaderSecurity }
      $0.advertisedUpdates = updates.endpoint
    }
    control.start(upstream: leader.controlEndpoint)
    updates.start(upstream: try await leaderUpdatesEndpoint(leader))
    let follower = try await makeFollower(leader) {
      $0.leader = control.endpoint
      if curve { $0.security = keys.follower("alice") }
    }
    #expect(follower.store.state?.title == "before \(Self.secret)")
    _ = try await follower.send(SetTitle(title: "after \(Self.secret)")).applied()
    #expect(follower.store.state?.title == "after \(Self.secret)")
    await follower.stop()
    await leader.stop()
    control.stop()
    updates.stop()
    return control.bytes + updates.bytes
  }

  /// The updates socket's bound endpoint (the leader announces the relay's).
  private func leaderUpdatesEndpoint(_ leader: Leader<TestState>) async throws -> String {
    let engine = leader.engine
    return try await leader.loop.submit { _ in engine.value.boundEndpoints.updates.description }
  }

  @Test("with CURVE no state text crosses the wire; without it, it does")
  func stateTextOnTheWire() async throws {
    let needle = Array(Self.secret.utf8)
    let plain = try await capture(curve: false)
    #expect(plain.count > 0)
    #expect(contains(plain, needle), "plain mode: the state text is on the wire")
    let encrypted = try await capture(curve: true)
    #expect(encrypted.count > 0)
    #expect(!contains(encrypted, needle), "CURVE: no state text on the wire")
    #expect(!contains(encrypted, Array("test.title".utf8)), "CURVE: no action tag either")
  }

  private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count)
    where haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle {
      return true
    }
    return false
  }
}
