import Testing

@testable import TandemProtocol

/// The judgement of a forwarded action (``ClientLedger/judge(_:now:)``), as a table: the
/// client's generation in the ledger, the generation and number the action carries, the
/// judgement, and the ledger's generation afterwards. The ledger's entry for "c" has action 1
/// applied at sequence 10 (see ``ClientOwnershipTests/ledger(owner:)``).
@Suite("Client judgement")
struct ClientJudgementTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    /// The client's generation in the ledger before the action (nil: no entry).
    var owner: UInt64?
    var sent: UInt64
    var number: UInt64
    var judgement: ClientLedger.Judgement
    var ownerAfter: UInt64?
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "the owner's next action", owner: 8, sent: 8, number: 2,
      judgement: .verdict(.apply, adopted: false), ownerAfter: 8),
    Row(
      name: "the owner's duplicate", owner: 8, sent: 8, number: 1,
      judgement: .verdict(.duplicate(sequence: 10), adopted: false), ownerAfter: 8),
    Row(
      name: "the owner's action after a gap", owner: 8, sent: 8, number: 4,
      judgement: .verdict(.outOfOrder(expected: 2), adopted: false), ownerAfter: 8),
    Row(
      name: "a sender that said no HELLO is not checked", owner: 8, sent: 0, number: 2,
      judgement: .verdict(.apply, adopted: false), ownerAfter: 8),
    Row(
      name: "a process taken over gets no verdict", owner: 8, sent: 3, number: 2,
      judgement: .superseded(current: 8), ownerAfter: 8),
    Row(
      name: "a generation the ledger did not record is adopted", owner: 2, sent: 9, number: 1,
      judgement: .verdict(.duplicate(sequence: 10), adopted: true), ownerAfter: 9),
    Row(
      name: "a leader restarted without its ledger adopts the sender's", owner: nil, sent: 9,
      number: 1, judgement: .verdict(.apply, adopted: true), ownerAfter: 9),
    Row(
      name: "an unknown client that said no HELLO", owner: nil, sent: 0, number: 1,
      judgement: .verdict(.apply, adopted: false), ownerAfter: nil),
  ]

  @Test(arguments: rows)
  func judge(_ row: Row) {
    var ledger = ClientOwnershipTests.ledger(owner: row.owner)
    let action = ForwardedAction(
      client: "c", number: row.number, generation: row.sent, tag: "bump", payload: [])
    #expect(ledger.judge(action, now: 20) == row.judgement)
    #expect(ledger.entries["c"]?.generation == row.ownerAfter)
  }
}
