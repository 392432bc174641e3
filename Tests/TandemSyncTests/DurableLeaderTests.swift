
import Foundation
import Tandem
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("A leader with a journal", .serialized)
struct DurableLeaderTests {
  func makeDurableLeader(
    _ directory: borrowing LeaderDirectory,
    configure: (inout LeaderConfiguration) -> Void = { _ in }
  ) async throws -> Leader<TestState> {
    let path = directory.journal
    let control = directory.control
    let updates = directory.updates
    return try await makeLeader {
      $0.journalPath = path
      $0.control = control
      $0.updates = updates
      configure(&$0)
    }
  }

  /// A leader whose journal may grow to 256 KiB only, never compacted: actions of 64 KiB soon
  /// fail to commit.
  func makeLeaderWithASmallJournal(
    _ directory: borrowing LeaderDirectory
  ) async throws -> Leader<TestState> {
    try await makeDurableLeader(directory) {
      $0.journal.maximumFileBytes = 256 << 10
      $0.journal.compactsAfterSnapshot = false
      $0.journal.snapshotPolicy = .init(deltaCount: 1_000_000, patchBytes: 1 << 40)
    }
  }

  @Test(arguments: [LeaderConfiguration.DeltaGrouping.perAction, .perBatch])
  func aRestartedLeaderRecoversItsStateSequenceEpochAndLedger(
    grouping: LeaderConfiguration.DeltaGrouping
  ) async throws {
    let directory = try LeaderDirectory()
    let first = try await makeDurableLeader(directory) { $0.deltaGrouping = grouping }
    let follower = try await makeFollower(first) { $0.clientID = "steady" }
    for value in 0..<50 {
      _ = try await follower.send(Record(client: "steady", value: value)).applied()
      // A burst of the leader's own actions, which a grouping leader may publish together.
      for _ in 0..<5 { first.store.dispatch(Increment()) }
    }
    let before = first.store.state
    let sequence = first.sequence
    await first.stop()

    let second = try await makeDurableLeader(directory) { $0.deltaGrouping = grouping }
    #expect(second.epoch == first.epoch)
    #expect(second.sequence == sequence)
    #expect(second.store.state == before)
    // The follower rejoins the same history with a catch-up, not a snapshot, and its numbering
    // continues: the leader remembers its last action.
    _ = try await follower.send(Record(client: "steady", value: 50)).applied()
    #expect(second.store.state.log["steady"] == Array(0...50))
    #expect(follower.store.state == second.store.state)
    #expect(try await follower.statistics().resyncs == 0)
    await follower.stop()
    await second.stop()
  }

  @Test func aSecondLeaderOnTheSameJournalIsRefused() async throws {
    let directory = try LeaderDirectory()
    let first = try await makeDurableLeader(directory)
    let path = directory.journal
    await #expect {
      _ = try await makeLeader { $0.journalPath = path }
    } throws: { error in
      "\(error)".contains("another")
    }
    await first.stop()
  }

  @Test func aBatchThatCannotCommitIsUndoneRejectedAndNeverPublished() async throws {
    let directory = try LeaderDirectory()
    let leader = try await makeLeaderWithASmallJournal(directory)
    let follower = try await makeFollower(leader)
    _ = try await follower.send(Increment()).applied()
    // Titles of 64 KiB soon fill the 256 KiB the journal may use.
    var rejected: Rejection?
    for index in 0..<20 {
      do {
        _ = try await follower.send(
          SetTitle(title: String(repeating: "\(index % 10)", count: 65536))
        )
        .applied()
      } catch {
        guard case .rejected(let rejection) = error else { throw error }
        rejected = rejection
        break
      }
    }
    #expect(rejected?.code == .commitFailed)
    // The rejected action used its number up: the follower's next action is answered (applied,
    // or refused again while the journal stays full), never left waiting on a gap.
    do {
      _ = try await follower.send(Increment()).applied()
    } catch {
      guard case .rejected(let again) = error else { throw error }
      #expect(again.code == .commitFailed)
    }
    let statistics = try await leader.statistics()
    #expect(statistics.counters["commitFailures"] ?? 0 >= 1)
    // What the leader shows is what it published and committed: the follower agrees with it.
    await eventually("the follower equals the leader") {
      follower.store.state == leader.store.state
    }
    #expect(statistics.sequence == leader.sequence)
    await follower.stop()
    await leader.stop()
  }

  @Test func anActionThatFailedToCommitIsRejectedAgainWhenSentAgain() async throws {
    let directory = try LeaderDirectory()
    let leader = try await makeLeaderWithASmallJournal(directory)
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    func title(_ number: UInt64) throws -> ControlReply {
      let title = String(repeating: "\(number % 10)", count: 65536)
      return try client.request(
        .dispatch(
          ForwardedAction(
            client: "full", number: number, tag: "test.title",
            payload: Array(#"{"title":"\#(title)"}"#.utf8))))
    }
    // Titles of 64 KiB soon fill the 256 KiB the journal may use.
    var refused: UInt64?
    for number: UInt64 in 1...20 {
      if case .reject(_, _, let rejection) = try title(number) {
        #expect(rejection.code == .commitFailed)
        refused = number
        break
      }
    }
    let number = try #require(refused)
    // Its REJECT may have been lost with a connection: sent again, it is a duplicate, and the
    // answer is the same rejection, not the ACK of an applied action.
    guard case .reject(_, number, let again) = try title(number) else {
      Issue.record("expected action \(number) to be rejected again")
      return
    }
    #expect(again.code == .commitFailed)
    await leader.stop()
  }

  @Test func aRestartedLeaderRejectsARejectedActionSentAgain() async throws {
    let directory = try LeaderDirectory()
    func forbidden(_ leader: Leader<TestState>) throws -> ControlReply {
      let client = RawClient(endpoint: leader.controlEndpoint)
      defer { client.close() }
      return try client.request(
        .dispatch(
          ForwardedAction(client: "c", number: 1, tag: "test.forbidden", payload: Array("{}".utf8))
        ))
    }
    let first = try await makeDurableLeader(directory)
    guard case .reject(_, 1, let rejection) = try forbidden(first) else {
      Issue.record("expected the forbidden action to be rejected")
      return
    }
    await first.stop()
    // Its REJECT lost, the follower sends the action again to the restarted leader: the
    // rejection comes from the recovered ledger, not an ACK of an applied duplicate.
    let second = try await makeDurableLeader(directory)
    #expect(try forbidden(second) == .reject(client: "c", number: 1, rejection))
    await second.stop()
  }

  @Test func catchUpBeyondTheBacklogIsServedFromTheJournal() async throws {
    let directory = try LeaderDirectory()
    let leader = try await makeDurableLeader(directory) {
      $0.backlogCount = 5
      $0.updatesHighWaterMark = 10
      $0.journal.durability = .normal
    }
    let follower = try await makeFollower(leader) { $0.updatesHighWaterMark = 10 }
    try await floodWhileStalled(leader, follower, deltas: 300, bytes: 65536)
    let statistics = try await leader.statistics()
    #expect(statistics.counters["journalCatchUps"] ?? 0 >= 1)
    #expect(try await follower.statistics().resyncs == 0)
    await follower.stop()
    await leader.stop()
  }
}
