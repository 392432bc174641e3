import Testing

@testable import TandemProtocol

/// What a ledger answers for a rejected number sent again: the rejection, however many actions
/// were rejected with it (a batch the journal refused), never the `ACK` of an applied action.
@Suite("Client ledger: rejections kept")
struct LedgerRejectionTests {
  static let failure = Rejection(code: .commitFailed, message: "disk")

  /// A ledger at number 1 whose batch of `count` more actions of the client failed to commit.
  static func afterFailedBatch(of count: UInt64) -> ClientLedger {
    var ledger = ClientLedger()
    ledger.recordApplied(client: "c", number: 1, sequence: 1)
    let before = ledger.entries["c"]
    var after = ledger
    for number in 2...(count + 1) {
      after.recordApplied(client: "c", number: number, sequence: number)
    }
    ledger.revert(
      client: "c", before: before, after: after.entries["c"]!, undone: Array(2...(count + 1)),
      rejection: failure, now: 1)
    return ledger
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var batch: UInt64
    var number: UInt64
    var verdict: ClientLedger.Verdict
    var testDescription: String { name }
  }

  @Test(arguments: [
    Row(
      name: "the first of a large failed batch", batch: 200, number: 2, verdict: .rejected(failure)),
    Row(name: "the last of it", batch: 200, number: 201, verdict: .rejected(failure)),
    Row(
      name: "the action applied before it", batch: 200, number: 1, verdict: .duplicate(sequence: 1)),
    Row(name: "the next number", batch: 200, number: 202, verdict: .apply),
    Row(name: "a failed batch of one", batch: 1, number: 2, verdict: .rejected(failure)),
  ])
  func aNumberOfAFailedBatchSentAgain(_ row: Row) {
    let ledger = Self.afterFailedBatch(of: row.batch)
    #expect(ledger.verdict(client: "c", number: row.number) == row.verdict)
  }

  @Test func theLatestRunsAreKept() {
    var ledger = Self.afterFailedBatch(of: 3)
    for _ in 0..<ClientLedger.rejectedRunsKept {
      let before = ledger.entries["c"]
      let last = ledger.lastNumber(of: "c")
      var after = ledger
      after.recordApplied(client: "c", number: last + 1, sequence: 9)
      after.recordApplied(client: "c", number: last + 2, sequence: 10)
      ledger.revert(
        client: "c", before: before, after: after.entries["c"]!, undone: [last + 1, last + 2],
        rejection: Self.failure, now: 1)
    }
    #expect(ledger.entries["c"]?.rejectedRuns.count == ClientLedger.rejectedRunsKept)
    // The oldest run (2...4) was let go; the latest ones answer.
    #expect(ledger.verdict(client: "c", number: 2) == .duplicate(sequence: 1))
    let last = ledger.lastNumber(of: "c")
    #expect(ledger.verdict(client: "c", number: last) == .rejected(Self.failure))
  }
}
