import Testing

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
    ledger.recordRejected(client: "a", number: 2, now: 6)
    #expect(ledger.lastNumber(of: "a") == 2)
    #expect(ledger.verdict(client: "a", number: 3) == .apply)
    #expect(ledger.verdict(client: "a", number: 2) == .duplicate(sequence: 4))
  }

  @Test func idleClientsAreForgotten() {
    var ledger = ClientLedger(idleLimit: 100)
    ledger.recordApplied(client: "old", number: 1, sequence: 1)
    ledger.recordApplied(client: "new", number: 1, sequence: 150)
    ledger.evictIdle(now: 200)
    #expect(ledger.lastNumber(of: "old") == 0)
    #expect(ledger.lastNumber(of: "new") == 1)
  }
}
