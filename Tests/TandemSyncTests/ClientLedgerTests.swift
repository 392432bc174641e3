import Testing

@testable import TandemProtocol
@testable import TandemSync

@Suite("Client ledger")
struct ClientLedgerTests {
  @Test func appliesOnlyTheNextNumber() {
    var ledger = ClientLedger()
    #expect(ledger.verdict(client: "a", number: 1) == .apply)
    #expect(ledger.verdict(client: "a", number: 2) == .outOfOrder(expected: 1))
    ledger.recordApplied(client: "a", number: 1, sequence: 10)
    #expect(ledger.verdict(client: "a", number: 2) == .apply)
    #expect(ledger.verdict(client: "a", number: 1) == .duplicate(sequence: 10))
    #expect(ledger.verdict(client: "b", number: 1) == .apply)
  }

  @Test func aRejectionUsesTheNumberUp() {
    var ledger = ClientLedger()
    ledger.recordApplied(client: "a", number: 1, sequence: 4)
    let refused = Rejection(code: .refused, message: "no")
    ledger.recordRejected(client: "a", number: 2, now: 6, rejection: refused)
    #expect(ledger.lastNumber(of: "a") == 2)
    #expect(ledger.verdict(client: "a", number: 3) == .apply)
    // Sent again, a rejected action gets its rejection, and an applied one its sequence.
    #expect(ledger.verdict(client: "a", number: 2) == .rejected(refused))
    ledger.recordApplied(client: "a", number: 3, sequence: 7)
    #expect(ledger.verdict(client: "a", number: 2) == .rejected(refused))
    #expect(ledger.verdict(client: "a", number: 1) == .duplicate(sequence: 7))
  }

  @Test func keepsTheLatestRejectionsOfEachClient() {
    var ledger = ClientLedger()
    let kept = UInt64(ClientLedger.rejectionsKept)
    for number in 1...(kept + 1) {
      ledger.recordRejected(
        client: "a", number: number, now: 0,
        rejection: Rejection(code: .refused, message: "\(number)"))
    }
    #expect(ledger.entries["a"]?.rejections.count == ClientLedger.rejectionsKept)
    #expect(ledger.verdict(client: "a", number: 1) == .duplicate(sequence: 0))
    #expect(
      ledger.verdict(client: "a", number: 2) == .rejected(Rejection(code: .refused, message: "2")))
  }

  @Test func aBatchThatDidNotCommitLeavesItsNumbersUsedAndItsActionsRejected() {
    var ledger = ClientLedger()
    ledger.recordApplied(client: "a", number: 1, sequence: 1)
    let before = ledger.entries["a"]
    // The batch: 2 applied, 3 refused by validation, 4 applied.
    let refused = Rejection(code: .refused, message: "no")
    ledger.recordApplied(client: "a", number: 2, sequence: 2)
    ledger.recordRejected(client: "a", number: 3, now: 2, rejection: refused)
    ledger.recordApplied(client: "a", number: 4, sequence: 3)
    let after = ledger.entries["a"]!
    let failed = Rejection(code: .commitFailed, message: "disk full")
    ledger.revert(
      client: "a", before: before, after: after, undone: [2, 4], rejection: failed, now: 1)
    #expect(ledger.lastNumber(of: "a") == 4)
    #expect(ledger.verdict(client: "a", number: 2) == .rejected(failed))
    #expect(ledger.verdict(client: "a", number: 3) == .rejected(refused))
    #expect(ledger.verdict(client: "a", number: 4) == .rejected(failed))
    #expect(ledger.verdict(client: "a", number: 1) == .duplicate(sequence: 1))
    #expect(ledger.verdict(client: "a", number: 5) == .apply)
  }

  @Test func idleClientsAreForgotten() {
    var ledger = ClientLedger(idleLimit: 100)
    ledger.recordApplied(client: "old", number: 1, sequence: 1)
    ledger.recordApplied(client: "new", number: 1, sequence: 150)
    ledger.evict(now: 200)
    #expect(ledger.lastNumber(of: "old") == 0)
    #expect(ledger.lastNumber(of: "new") == 1)
  }

  @Test func aClientActiveAgainIsNotForgottenForItsEarlierActivity() {
    var ledger = ClientLedger(idleLimit: 100)
    ledger.recordApplied(client: "a", number: 1, sequence: 1)
    ledger.recordApplied(client: "b", number: 1, sequence: 2)
    ledger.recordApplied(client: "a", number: 2, sequence: 150)
    #expect(ledger.forgottenThrough == 0)
    #expect(ledger.evict(now: 200) == ["b"])
    #expect(ledger.forgottenThrough == 2)
    #expect(ledger.evict(now: 251) == ["a"])
    #expect(ledger.entries.isEmpty)
    // The latest activity of a forgotten client: a's last action, not the sequence it went at.
    #expect(ledger.forgottenThrough == 150)
  }

  @Test func beyondTheMaximumTheLeastRecentlyActiveGoRejectedOnlyClientsFirst() {
    var ledger = ClientLedger(maximumClients: 3)
    let refused = Rejection(code: .refused, message: "no")
    ledger.recordApplied(client: "a", number: 1, sequence: 1)
    ledger.recordApplied(client: "b", number: 1, sequence: 2)
    for client in ["x", "y", "z"] {
      ledger.recordRejected(client: client, number: 1, now: 2, rejection: refused)
    }
    #expect(ledger.evict(now: 2) == ["x", "y"])
    ledger.recordRejected(client: "w", number: 1, now: 2, rejection: refused)
    #expect(ledger.evict(now: 2) == ["z"])
    // A client whose action is applied is no longer among the first to go.
    ledger.recordApplied(client: "w", number: 2, sequence: 3)
    ledger.recordApplied(client: "c", number: 1, sequence: 4)
    #expect(ledger.evict(now: 4) == ["a"])
    #expect(Set(ledger.entries.keys) == ["b", "w", "c"])
    // z, forgotten at 2, was the latest active of the forgotten; a was active at 1.
    #expect(ledger.forgottenThrough == 2)
  }

  @Test func aRestoredLedgerForgetsInTheOrderOfActivity() {
    let entries = [
      "late": ClientLedger.Entry(lastNumber: 1, lastSequence: 9, lastActive: 9),
      "early": ClientLedger.Entry(lastNumber: 1, lastSequence: 3, lastActive: 3),
      "middle": ClientLedger.Entry(lastNumber: 1, lastSequence: 5, lastActive: 5),
    ]
    var ledger = ClientLedger(maximumClients: 1, restoring: entries)
    #expect(ledger.evict(now: 9) == ["early", "middle"])
    #expect(
      ledger
        == ClientLedger(
          maximumClients: 1, restoring: ["late": entries["late"]!], forgottenThrough: 5))
  }

  @Test func aCopyTakingEachBatchsChangesStaysEqualToTheLedger() {
    var ledger = ClientLedger(maximumClients: 3)
    var copy = ledger
    let refused = Rejection(code: .refused, message: "no")
    for batch in UInt64(1)...20 {
      var changed: Set<String> = []
      for client in ["a\(batch % 5)", "b\(batch % 2)"] {
        ledger.recordApplied(client: client, number: batch, sequence: batch)
        changed.insert(client)
      }
      ledger.recordRejected(client: "r\(batch)", number: 1, now: batch, rejection: refused)
      changed.insert("r\(batch)")
      let forgotten = ledger.evict(now: batch)
      let entries = ledger.entries.filter { changed.contains($0.key) }
      copy.apply(entries, forgetting: forgotten, forgottenThrough: ledger.forgottenThrough)
      #expect(copy == ledger)
    }
  }

  @Test func manyTouchesOfFewClientsKeepTheLedgerSmall() {
    var ledger = ClientLedger(idleLimit: 10, maximumClients: 2)
    var largest = 0
    for sequence in UInt64(1)...10_000 {
      ledger.recordApplied(client: "c\(sequence % 3)", number: sequence, sequence: sequence)
      ledger.evict(now: sequence)
      largest = max(largest, ledger.entries.count)
    }
    #expect(largest == 2)
    #expect(Set(ledger.entries.keys) == ["c0", "c1"])
  }
}
