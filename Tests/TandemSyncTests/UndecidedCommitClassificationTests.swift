import TandemJournal
import TandemProtocol
import Testing

@testable import TandemSync

/// How the leader's shell classifies a journal error at commit: fenced off and a lost
/// connection to the shared journal go to the leadership rules unanswered; anything else is a
/// refusal answered `REJECT commit-failed`.
@Suite("Leader: undecided commits classified")
struct UndecidedCommitClassificationTests {
  struct Counter: Codable, Equatable, Sendable {}

  static func classify(_ error: any Error) -> UndecidedCommit? {
    LeaderEngine<Counter>.undecided(error)
  }

  @Test func aFencedAppendIsFenced() {
    let error = JournalError.fenced(holder: "a", fencingEpoch: 3, current: nil)
    #expect(Self.classify(error) == .fenced)
  }

  @Test func aLostConnectionLeavesTheOutcomeUnknown() {
    let lost = PostgresError(sqlState: nil, message: "server closed the connection", call: "COMMIT")
    let error = JournalError.postgres(location: "postgres://db/tandem", lost)
    #expect(Self.classify(error) == .outcomeUnknown("\(error)"))
  }

  @Test func aServerRefusalIsAFailure() {
    let refused = PostgresError(sqlState: "53100", message: "disk full", call: "INSERT")
    #expect(Self.classify(JournalError.postgres(location: "postgres://db/tandem", refused)) == nil)
    #expect(Self.classify(JournalError.sequenceMismatch(expected: 2, got: 4)) == nil)
  }
}
