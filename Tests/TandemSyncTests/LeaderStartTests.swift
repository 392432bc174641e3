import Testing

@testable import TandemSync

@Suite("Leader start: endpoints that are not endpoints or cannot be bound")
struct LeaderStartTests {
  @Test func anEndpointThatIsNotOneIsRefusedByName() async throws {
    await #expect(throws: LeaderError.invalidEndpoint("tcp:/127.0.0.1")) {
      try await makeLeader { $0.control = "tcp:/127.0.0.1" }
    }
  }

  @Test func aPortAnotherLeaderHoldsIsNamedWithTheSystemsReason() async throws {
    let first = try await makeLeader()
    let taken = first.controlEndpoint
    let error = await #expect(throws: LeaderError.self) {
      try await makeLeader { $0.control = taken }
    }
    guard case .cannotBind(let endpoint, let reason) = error else {
      Issue.record("expected cannotBind, got \(String(describing: error))")
      await first.stop()
      return
    }
    #expect(endpoint == taken)
    #expect(reason == "Address already in use")
    #expect(error?.description == "cannot bind \(taken): Address already in use")
    await first.stop()
  }
}
