import Testing

@testable import TandemSync

extension DurableLeaderTests {
  @Test func aLeaderWhoseJournalIsFullMakesRoomAndCommitsAgain() async throws {
    let directory = try LeaderDirectory()
    // 256 KiB at most, no snapshot by the policy, and compaction keeping two sequences.
    let leader = try await makeDurableLeader(directory) {
      $0.journal.maximumFileBytes = 256 << 10
      $0.journal.snapshotPolicy = .init(deltaCount: 1_000_000, patchBytes: 1 << 40)
      $0.journal.catchUpWindow = 2
    }
    let follower = try await makeFollower(leader)
    // Titles of 64 KiB fill the journal within a few actions; each replaces the last, so a
    // snapshot holds one and compaction frees the rest.
    var refused = 0
    var appliedAfterARefusal = 0
    for index in 0..<20 {
      do {
        _ = try await follower.send(
          SetTitle(title: String(repeating: "\(index % 10)", count: 65536))
        )
        .applied()
        if refused > 0 { appliedAfterARefusal += 1 }
      } catch {
        guard case .rejected(let rejection) = error, rejection.code == .commitFailed else {
          throw error
        }
        refused += 1
      }
    }
    #expect(refused >= 1)
    #expect(appliedAfterARefusal >= 5)
    let statistics = try await leader.statistics()
    #expect(statistics.counters["commitFailures"] ?? 0 >= 1)
    #expect(statistics.counters["journalSnapshots"] ?? 0 >= 1)
    _ = try await follower.send(Increment()).applied()
    #expect(leader.store.state.counter == 1)
    await follower.stop()
    await leader.stop()
  }
}
