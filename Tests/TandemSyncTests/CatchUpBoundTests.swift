import Testing

@testable import TandemSync

@Suite("A catch-up is bounded in bytes", .serialized)
struct CatchUpBoundTests {
  /// From the backlog, and from the journal when the backlog keeps only the last delta.
  @Test(arguments: [false, true])
  func aFollowerFurtherBehindThanTheLimitIsToldToTakeASnapshot(fromTheJournal: Bool) async throws {
    let directory = try LeaderDirectory()
    let path = directory.journal
    let leader = try await makeLeader {
      // Each delta below has a patch of a little more than 1,000 bytes: two fit, three do not.
      $0.maximumCatchUpBytes = 2_500
      if fromTheJournal {
        $0.journalPath = path
        $0.backlogCount = 1
      }
    }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    for letter in ["a", "b", "c", "d", "e"] {
      leader.store.dispatch(SetTitle(title: String(repeating: letter, count: 1_000)))
    }
    guard case .deltas(_, let deltas) = try client.request(.catchUp(leader.epoch, from: 4)) else {
      Issue.record("expected the last two deltas")
      await leader.stop()
      return
    }
    #expect(deltas.map(\.sequence) == [4, 5])
    #expect(
      try client.request(.catchUp(leader.epoch, from: 3)) == .stale(leader.epoch, sequence: 5))
    let statistics = try await leader.statistics()
    #expect(statistics.counters["journalCatchUps"] == (fromTheJournal ? 1 : 0))
    await leader.stop()
  }
}
