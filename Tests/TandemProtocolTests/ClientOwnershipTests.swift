import Foundation
import Testing

@testable import TandemProtocol

/// The rules of who owns a client id (``ClientLedger/hello(client:generation:now:fresh:)``), as a
/// table: the ledger's generation for the client, the generation a `HELLO` carries, and the
/// answer with the ledger's generation afterwards.
@Suite("Client id ownership")
struct ClientOwnershipTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    /// The client's generation in the ledger before the `HELLO` (nil: no entry).
    var owner: UInt64?
    var hello: UInt64
    var greeting: ClientLedger.Greeting
    var ownerAfter: UInt64
    var testDescription: String { name }
  }

  /// The random step a new owner's generation takes in these tests.
  static let fresh: UInt64 = 5

  static let rows: [Row] = [
    Row(
      name: "a new process, client unknown", owner: nil, hello: 0,
      greeting: .welcome(generation: 5), ownerAfter: 5),
    Row(
      name: "a new process, client with actions but no owner (an older journal)", owner: 0,
      hello: 0, greeting: .welcome(generation: 5), ownerAfter: 5),
    Row(
      name: "the owner reconnects", owner: 3, hello: 3, greeting: .welcome(generation: 3),
      ownerAfter: 3),
    Row(
      name: "a restarted process takes the id over", owner: 3, hello: 0,
      greeting: .welcome(generation: 8), ownerAfter: 8),
    Row(
      name: "a process taken over comes back", owner: 8, hello: 3,
      greeting: .superseded(current: 8), ownerAfter: 8),
    Row(
      name: "a generation the ledger did not record (lost, or of another history) is renewed",
      owner: 2, hello: 7, greeting: .welcome(generation: 12), ownerAfter: 12),
    Row(
      name: "a generation of another history, client unknown, is renewed", owner: nil, hello: 6,
      greeting: .welcome(generation: 11), ownerAfter: 11),
  ]

  /// A ledger whose entry for "c" has the generation `owner` (nil: no entry).
  static func ledger(owner: UInt64?) -> ClientLedger {
    var ledger = ClientLedger()
    if let owner {
      ledger.recordApplied(client: "c", number: 1, sequence: 10)
      if owner > 0 { ledger.own("c", generation: owner, now: 10) }
    }
    return ledger
  }

  @Test(arguments: rows)
  func hello(_ row: Row) {
    var ledger = Self.ledger(owner: row.owner)
    #expect(
      ledger.hello(client: "c", generation: row.hello, now: 20, fresh: Self.fresh) == row.greeting
    )
    #expect(ledger.entries["c"]?.generation == row.ownerAfter)
  }

  /// A sender of an action of "c" (generation `sent`, action `number`): who it is to the ledger
  /// (``ClientLedger/admit(client:generation:now:)``), the judgement of its action
  /// (``ClientLedger/judge(_:now:)``, which admits it, then gives the verdict; action 1 of "c"
  /// took effect at sequence 10), and the owner afterwards.
  struct AdmitRow: Sendable, CustomTestStringConvertible {
    var name: String
    var owner: UInt64?
    var sent: UInt64
    var number: UInt64 = 2
    var sender: ClientLedger.Sender
    var judgement: ClientLedger.Judgement
    var ownerAfter: UInt64?
    var testDescription: String { name }
  }

  static let admitRows: [AdmitRow] = [
    AdmitRow(
      name: "a sender that said no HELLO is not checked", owner: 8, sent: 0, sender: .owner,
      judgement: .verdict(.apply), ownerAfter: 8),
    AdmitRow(
      name: "the owner", owner: 8, sent: 8, sender: .owner,
      judgement: .verdict(.apply), ownerAfter: 8),
    AdmitRow(
      name: "the owner's duplicate", owner: 8, sent: 8, number: 1, sender: .owner,
      judgement: .verdict(.duplicate(sequence: 10)), ownerAfter: 8),
    AdmitRow(
      name: "the owner's action after a gap", owner: 8, sent: 8, number: 4, sender: .owner,
      judgement: .verdict(.outOfOrder(expected: 2)), ownerAfter: 8),
    AdmitRow(
      name: "a process taken over", owner: 8, sent: 3, sender: .superseded(current: 8),
      judgement: .superseded(current: 8), ownerAfter: 8),
    AdmitRow(
      name: "a generation the ledger did not record is unknown until its HELLO", owner: 2,
      sent: 9, sender: .unknown, judgement: .verdict(.unknownSender), ownerAfter: 2),
    AdmitRow(
      name: "a leader restarted without its ledger knows no sender", owner: nil, sent: 9,
      sender: .unknown, judgement: .verdict(.unknownSender), ownerAfter: nil),
    AdmitRow(
      name: "an unknown client that said no HELLO", owner: nil, sent: 0, number: 1,
      sender: .owner, judgement: .verdict(.apply), ownerAfter: nil),
  ]

  @Test(arguments: admitRows)
  func admit(_ row: AdmitRow) {
    var ledger = Self.ledger(owner: row.owner)
    #expect(ledger.admit(client: "c", generation: row.sent, now: 20) == row.sender)
    #expect(ledger.entries["c"]?.generation == row.ownerAfter)
  }

  @Test(arguments: admitRows)
  func judge(_ row: AdmitRow) {
    var ledger = Self.ledger(owner: row.owner)
    let action = ForwardedAction(
      client: "c", number: row.number, generation: row.sent, tag: "bump", payload: [])
    #expect(ledger.judge(action, now: 20) == row.judgement)
    #expect(ledger.entries["c"]?.generation == row.ownerAfter)
  }

  /// Two processes started with one client id, and a leader restarted without its ledger: each
  /// holds a generation of another history. Whichever says `HELLO` first gets a new one above
  /// its own (and its `HELLO` said again before the `WELCOME` arrived is still its own); the
  /// other, holding a lower one, is refused, or, holding a higher one, gets a new generation
  /// above it and takes the id over. Either way one process owns the id, and its numbers are
  /// never judged against the other's.
  @Test(arguments: [(first: 9, second: 4), (first: 4, second: 20)] as [(UInt64, UInt64)])
  func twoProcessesWithGenerationsOfAnotherHistory(first: UInt64, second: UInt64) {
    var ledger = ClientLedger()
    let unheard = ForwardedAction(client: "c", number: 1, generation: second, tag: "t", payload: [])
    #expect(ledger.judge(unheard, now: 0) == .verdict(.unknownSender))
    #expect(
      ledger.hello(client: "c", generation: first, now: 0, fresh: 5)
        == .welcome(generation: first + 5))
    #expect(
      ledger.hello(client: "c", generation: first, now: 0, fresh: 5)
        == .welcome(generation: first + 5))
    let greeting = ledger.hello(client: "c", generation: second, now: 0, fresh: 5)
    if second < first + 5 {
      #expect(greeting == .superseded(current: first + 5))
    } else {
      #expect(greeting == .welcome(generation: second + 5))
      // Now the first process's HELLO, said again, is a process taken over.
      #expect(
        ledger.hello(client: "c", generation: first, now: 0, fresh: 5)
          == .superseded(current: second + 5))
    }
    #expect(ledger.judge(unheard, now: 0) != .verdict(.apply))
  }

  /// A sender with a generation whose client id the ledger holds nothing of (it forgot the
  /// client): number 1 would look like its next action, so no number is judged.
  @Test(arguments: [1, 7] as [UInt64])
  func aSenderTheLedgerForgotIsNotJudgedByItsNumber(_ number: UInt64) {
    var ledger = ClientLedger()
    let action = ForwardedAction(client: "c", number: number, generation: 9, tag: "t", payload: [])
    #expect(ledger.judge(action, now: 20) == .verdict(.unknownSender))
    #expect(ledger.entries["c"] == nil)
    var unchecked = action
    unchecked.generation = 0
    #expect(
      ledger.judge(unchecked, now: 20)
        == .verdict(number == 1 ? .apply : .outOfOrder(expected: 1)))
  }

  /// The paused process of the protocol's "superseded" rule: A owns the id and sent actions
  /// 1 to 3, of which 1 and 2 were applied; it is paused; B starts with the same id, learns the
  /// last number 2 and sends its own 3 and 4. When A comes back, it must not be welcomed, nor
  /// its action 3 admitted: it would be answered as a duplicate of B's.
  @Test func aProcessTakenOverIsNotWelcomedAgain() {
    var ledger = ClientLedger()
    guard case .welcome(let a) = ledger.hello(client: "c", generation: 0, now: 0, fresh: 1)
    else {
      Issue.record("A was not welcomed")
      return
    }
    ledger.recordApplied(client: "c", number: 1, sequence: 1)
    ledger.recordApplied(client: "c", number: 2, sequence: 2)
    guard case .welcome(let b) = ledger.hello(client: "c", generation: 0, now: 2, fresh: 1)
    else {
      Issue.record("B was not welcomed")
      return
    }
    #expect(b > a)
    #expect(ledger.lastNumber(of: "c") == 2)
    ledger.recordApplied(client: "c", number: 3, sequence: 3)
    ledger.recordApplied(client: "c", number: 4, sequence: 4)
    #expect(ledger.admit(client: "c", generation: a, now: 4) == .superseded(current: b))
    #expect(ledger.hello(client: "c", generation: a, now: 4, fresh: 1) == .superseded(current: b))
    #expect(ledger.hello(client: "c", generation: b, now: 4, fresh: 1) == .welcome(generation: b))
  }

  @Test func theGenerationSurvivesARolledBackBatch() {
    var ledger = ClientLedger()
    ledger.recordApplied(client: "c", number: 1, sequence: 1)
    let before = ledger.entries["c"]
    _ = ledger.hello(client: "c", generation: 0, now: 1, fresh: 1)
    ledger.recordApplied(client: "c", number: 2, sequence: 2)
    let after = ledger.entries["c"]!
    ledger.revert(
      client: "c", before: before, after: after, undone: [2],
      rejection: Rejection(code: .commitFailed, message: "disk"), now: 1)
    #expect(ledger.entries["c"]?.generation == after.generation)
  }

  @Test func forgettingAnEntryOfAHelloAloneDoesNotRaiseForgottenThrough() {
    var ledger = ClientLedger(idleLimit: 10)
    _ = ledger.hello(client: "watcher", generation: 0, now: 5, fresh: 1)
    #expect(ledger.evict(now: 100) == ["watcher"])
    #expect(ledger.forgottenThrough == 0)
  }

  @Test func anEntryDecodedWithoutAGenerationHasNone() throws {
    let json = #"{"lastNumber":3,"lastSequence":9,"lastActive":9,"rejections":[]}"#
    let entry = try JSONDecoder().decode(ClientLedger.Entry.self, from: Data(json.utf8))
    #expect(entry.generation == 0)
    #expect(entry.lastNumber == 3)
  }
}
