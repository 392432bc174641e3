import Testing

@testable import TandemProtocol

/// ``LeaderProtocol/commitUndecided(_:_:into:)``: a batch the journal fenced off, or whose
/// commit got no answer, is never rejected; its held replies are dropped, the leadership rules
/// are told, and later actions go unanswered. Inputs and the effects they return.
@Suite("Leader protocol: undecided commits")
struct LeaderUndecidedCommitTests {
  typealias F = LeaderFixture

  struct DiskFull: Error {}

  static func origin(_ number: UInt64) -> Origin {
    Origin(client: "c", number: number, generation: 5)
  }

  /// A leader that committed action 1, then applied 2 (quietly), a duplicate of 1 and 3 in
  /// the batch that is about to be undecided.
  static func leaderWithBatch() -> F {
    var fixture = F()
    fixture.welcome()
    _ = fixture.receive(.dispatch(F.action(1)))
    _ = fixture.applied(F.action(1), result: .success(1))
    _ = fixture.committed(sequence: 1, deltas: [F.delta(1)])
    _ = fixture.applied(F.action(2), quietly: true, result: .success(2))
    _ = fixture.receive(.dispatch(F.action(1)))
    _ = fixture.applied(F.action(3), result: .success(3))
    return fixture
  }

  @Test(
    "an undecided commit answers nothing and tells the leadership rules",
    arguments: [UndecidedCommit.fenced, .outcomeUnknown("connection lost")])
  func undecided(outcome: UndecidedCommit) {
    var fixture = Self.leaderWithBatch()
    #expect(fixture.core.held.count == 3)
    var effects: [LeaderEffect] = []
    let actions = [2, 3].map { AppliedAction(origin: Self.origin($0), tag: "add") }
    fixture.core.commitUndecided(actions, outcome, into: &effects)
    #expect(effects.actions == [.leadership(outcome)])
    #expect(effects.counted.isEmpty)
    #expect(fixture.core.held.isEmpty)
    #expect(fixture.core.sequence == 1)
    #expect(fixture.core.undecided == outcome)
  }

  @Test("after an undecided commit, a forwarded action is neither applied nor answered")
  func laterActionsUnanswered() {
    var fixture = Self.leaderWithBatch()
    var effects: [LeaderEffect] = []
    fixture.core.commitUndecided([], .fenced, into: &effects)
    #expect(fixture.receive(.dispatch(F.action(2))).actions.isEmpty)
    #expect(fixture.receive(.dispatchQuietly(F.action(4))).actions.isEmpty)
  }

  @Test("a commit that failed for another reason is still rejected commit-failed")
  func failedStaysRejected() {
    var fixture = Self.leaderWithBatch()
    var effects: [LeaderEffect] = []
    let actions = [AppliedAction(origin: Self.origin(3), tag: "add")]
    fixture.core.commitFailed(
      actions, restoring: fixture.ledger.ledger, because: DiskFull(), into: &effects)
    #expect(effects.counted.contains(.actionRejected(.commitFailed)))
    #expect(fixture.core.undecided == nil)
  }
}
