import Testing

@testable import TandemProtocol
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

extension DurableLeaderTests {
  @Test func aDuplicateOfACommittedActionIsStillAcknowledgedWhenItsBatchFailsToCommit()
    async throws
  {
    let directory = try LeaderDirectory()
    let leader = try await makeLeaderWithASmallJournal(directory)
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    func send(_ number: UInt64, tag: String, payload: String) throws {
      try client.socket.send(
        parts: ControlRequest.dispatch(
          ForwardedAction(client: "dup", number: number, tag: tag, payload: Array(payload.utf8))
        ).frames)
    }
    guard
      case .ack(_, 1, _, let first) = try client.request(
        .dispatch(
          ForwardedAction(
            client: "dup", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8)))
      )
    else {
      Issue.record("expected action 1 to be applied")
      return
    }
    // Titles of 64 KiB soon fill the 256 KiB the journal may use, and the batches holding them
    // fail to commit. Each is followed by action 1 sent again (its ACK lost, say), which the
    // leader handles in the same batch as the title before it whenever both arrived together.
    for number: UInt64 in 2...21 {
      let title = String(repeating: "\(number % 10)", count: 65536)
      try send(number, tag: "test.title", payload: #"{"title":"\#(title)"}"#)
      try send(1, tag: "test.increment", payload: #"{"by":1}"#)
    }
    var refusedTitles = 0
    for _ in 0..<40 {
      let parts = try #require(try client.socket.receiveParts(wait: .timeout(.seconds(10))))
      switch try ControlReply(frames: parts) {
      case .ack(_, 1, _, let sequence):
        #expect(sequence >= first)
      case .reject(_, 1, let rejection):
        Issue.record("action 1, applied and committed, was answered with \(rejection)")
      case .reject(_, _, let rejection):
        #expect(rejection.code == .commitFailed)
        refusedTitles += 1
      case .ack:
        break
      case let other:
        Issue.record("unexpected reply \(other)")
      }
    }
    #expect(refusedTitles >= 1)
    #expect(leader.store.state.counter == 1)
    // Every commit-failed rejection is counted.
    let statistics = try await leader.statistics()
    #expect(statistics.counters["actionsRejected"] ?? 0 >= refusedTitles)
    await leader.stop()
  }
}
