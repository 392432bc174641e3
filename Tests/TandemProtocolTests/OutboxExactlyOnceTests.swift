import Testing

@testable import TandemProtocol

/// The follower's exactly-once corner cases on the outbox alone: each row states the inputs (the
/// actions queued and sent, then what the leader or the clock did) and the effects (the receipts
/// settled or failed, the numbers sent again), without sockets or sleeps.
@Suite("Outbox: exactly-once corner cases")
struct OutboxExactlyOnceTests {
  let now = ContinuousClock.now
  let epoch = Epoch(rawValue: 7)

  /// An outbox aligned at sequence 0 of ``epoch`` with `count` actions sent at replica sequence
  /// `sentAt`, loudly.
  func aligned(
    sending count: Int, at sentAt: UInt64 = 0, lastNumber: UInt64 = 0
  ) throws
    -> (Outbox, [ReceiptID])
  {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(lastNumber: lastNumber, forgottenThrough: 0, epoch: epoch, sequence: 0)
    var receipts: [ReceiptID] = []
    for _ in 0..<count { receipts.append(try outbox.enqueue(tag: "t", payload: [])) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, sentAt), client: "c", quietly: false)
    return (outbox, receipts)
  }

  func send(_ outbox: inout Outbox, at sequence: UInt64 = 0, epoch: Epoch? = nil) -> [UInt64] {
    outbox.takeUnsent(
      now: now, replica: (epoch ?? self.epoch, sequence), client: "c", quietly: false
    ).map(\.number)
  }

  @Test func receiptIDsAreDistinctAndInQueueOrder() throws {
    let (_, receipts) = try aligned(sending: 3)
    #expect(receipts.map(\.rawValue) == [1, 2, 3])
  }

  @Test func aRealignmentAfterOutOfOrderSendsNothingUntilItsWelcomeThenEverythingAgain() throws {
    var (outbox, _) = try aligned(sending: 3)
    // Action 2 was answered out-of-order: HELLO again, hold every send.
    let started = outbox.realign(now: now)
    let startedAgain = outbox.realign(now: now)
    #expect(started && !startedAgain)
    let held = send(&outbox)
    #expect(held.isEmpty)
    #expect(!outbox.realignmentTimedOut(after: .seconds(1), now: now + .milliseconds(500)))
    #expect(outbox.realignmentTimedOut(after: .seconds(1), now: now + .seconds(2)))
    // Its WELCOME says the leader has 1: all go again as numbered (1 is answered as a
    // duplicate), nothing is in doubt.
    let inDoubt = outbox.welcome(lastNumber: 1, forgottenThrough: 0, epoch: epoch, sequence: 1)
    let resent = send(&outbox)
    #expect(inDoubt.isEmpty && resent == [1, 2, 3])
  }

  struct RenumberRow: Sendable, CustomTestStringConvertible {
    var name: String
    /// The forgotten-through sequence of the WELCOME that shows the client forgotten.
    var forgottenThrough: UInt64
    /// The receipts (by queue order, from 1) that fail as outcome unknown.
    var inDoubt: [UInt64]
    /// The numbers the rest are sent under again.
    var resent: [UInt64]
    var testDescription: String { name }
  }

  @Test(arguments: [
    RenumberRow(
      name: "forgotten before the sends: all renumbered", forgottenThrough: 5, inDoubt: [],
      resent: [1, 2, 3]),
    RenumberRow(
      name: "forgotten after the sends: the sent ones in doubt, the unsent renumbered",
      forgottenThrough: 11, inDoubt: [1, 2], resent: [1]),
  ])
  func aWelcomeThatForgotTheClientRenumbers(_ row: RenumberRow) throws {
    // Two actions sent at replica sequence 10, a third queued but never sent.
    var (outbox, receipts) = try aligned(sending: 2, at: 10)
    receipts.append(try outbox.enqueue(tag: "t", payload: []))
    outbox.connectionClosed()
    let inDoubt = outbox.welcome(
      lastNumber: 0, forgottenThrough: row.forgottenThrough, epoch: epoch, sequence: 20)
    let resent = send(&outbox, at: 20)
    #expect(inDoubt.map(\.receipt.rawValue) == row.inDoubt)
    #expect(resent == row.resent)
    // The renumbered actions keep their receipts.
    #expect(
      outbox.entries.map(\.receipt) == receipts.filter { !row.inDoubt.contains($0.rawValue) })
  }

  @Test func aQuickRestartsWelcomeOfAnotherEpochLeavesNothingInDoubt() throws {
    // The leader restarted with a new history between two connections: its ledger forgot
    // everything (and so it forgot no client yet), and the old history's actions went with it.
    var (outbox, receipts) = try aligned(sending: 3, lastNumber: 4)
    _ = outbox.answered(5)
    outbox.connectionClosed()
    let restarted = Epoch(rawValue: 8)
    let inDoubt = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: restarted, sequence: 0)
    let resent = send(&outbox, epoch: restarted)
    #expect(inDoubt.isEmpty && resent == [1, 2])
    #expect(outbox.entries.map(\.receipt) == Array(receipts[1...]))
    // Only the new history's deltas settle them.
    let oldHistory = Delta(sequence: 4, origin: Origin(client: "c", number: 1), tag: "t", patch: [])
    let byTheOldHistory = outbox.applied(
      in: [oldHistory][...], epoch: epoch, client: "c", generation: 0)
    #expect(byTheOldHistory.isEmpty)
    let settled = outbox.applied(
      in: [oldHistory][...], epoch: restarted, client: "c", generation: 0)
    #expect(settled.map(\.receipt) == [receipts[1]] && settled.map(\.sequence) == [4])
  }

  @Test func aNewEpochOverTheOldHistorysPrefixKeepsWhatItForgotInDoubt() throws {
    // Actions sent at sequence 10; the journal lost its tail after 30 and the leader went on
    // under a new epoch with its ledger, which had forgotten the client at 25: the actions may
    // have been applied in the prefix the new epoch keeps, so renumbered they could apply twice.
    var (outbox, receipts) = try aligned(sending: 2, at: 10)
    outbox.connectionClosed()
    let minted = Epoch(rawValue: 9)
    let inDoubt = outbox.welcome(lastNumber: 0, forgottenThrough: 25, epoch: minted, sequence: 30)
    #expect(inDoubt.map(\.receipt) == receipts)
    #expect(send(&outbox, at: 30, epoch: minted).isEmpty)
  }

  @Test(arguments: [false, true])
  func aWelcomeThatRenewedTheGenerationRenumbersPastAnothersNumbers(renewed: Bool) throws {
    // Actions 1 and 2 sent, 3 queued unsent; the leader's ledger says 5 (another process used
    // the id while this one was away, when `renewed`; this process's own 1 and 2 applied with
    // their answers lost, when not).
    var (outbox, receipts) = try aligned(sending: 2)
    receipts.append(try outbox.enqueue(tag: "t", payload: []))
    outbox.connectionClosed()
    let minted = Epoch(rawValue: 9)
    let inDoubt = outbox.welcome(
      lastNumber: 5, forgottenThrough: 0, epoch: renewed ? minted : epoch, sequence: 30,
      renewed: renewed)
    let resent = send(&outbox, at: 30, epoch: renewed ? minted : epoch)
    if renewed {
      // 1 and 2 would be answered as the other's duplicates: in doubt; 3 goes as 6.
      #expect(inDoubt.map(\.receipt) == Array(receipts[..<2]))
      #expect(resent == [6])
      #expect(outbox.entries.map(\.receipt) == [receipts[2]])
    } else {
      #expect(inDoubt.isEmpty && resent == [1, 2, 3])
    }
  }

  struct OriginRow: Sendable, CustomTestStringConvertible {
    var name: String
    var origin: Origin
    var settles: Bool
    var testDescription: String { name }
  }

  @Test(arguments: [
    OriginRow(
      name: "this client, number and generation",
      origin: Origin(client: "c", number: 1, generation: 2),
      settles: true),
    OriginRow(
      name: "another generation (a process that took the id over)",
      origin: Origin(client: "c", number: 1, generation: 3), settles: false),
    OriginRow(
      name: "another client", origin: Origin(client: "d", number: 1, generation: 2), settles: false
    ),
    OriginRow(
      name: "another number", origin: Origin(client: "c", number: 2, generation: 2), settles: false),
  ])
  func aDeltaSettlesOnlyThisProcesssOwnAction(_ row: OriginRow) throws {
    var (outbox, receipts) = try aligned(sending: 1, at: 10)
    let delta = Delta(sequence: 11, origin: row.origin, tag: "t", patch: [])
    let settled = outbox.applied(in: [delta][...], epoch: epoch, client: "c", generation: 2)
    #expect(settled.map(\.receipt) == (row.settles ? [receipts[0]] : []))
    #expect(outbox.entries.count == (row.settles ? 0 : 1))
  }

  @Test func aGroupedDeltaSettlesEachActionAtItsOwnSequence() throws {
    var (outbox, receipts) = try aligned(sending: 2, at: 10)
    let delta = Delta(
      sequence: 13,
      actions: [
        AppliedAction(origin: Origin(client: "c", number: 1), tag: "t"),
        AppliedAction(origin: Origin(client: "d", number: 1), tag: "t"),
        AppliedAction(origin: Origin(client: "c", number: 2), tag: "t"),
      ], patch: [])
    let settled = outbox.applied(in: [delta][...], epoch: epoch, client: "c", generation: 0)
    #expect(settled.map(\.receipt) == receipts)
    #expect(settled.map(\.sequence) == [11, 13])
  }

  @Test func stoppingFailsEveryUnansweredReceiptAndRefusesMore() throws {
    // ERROR superseded: another process took the client id over; the follower stops.
    var (outbox, receipts) = try aligned(sending: 2)
    let unsent = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.answered(1)
    let failed = outbox.close()
    #expect(failed == [receipts[1], unsent])
    #expect(outbox.entries.isEmpty)
    #expect(throws: OutboxRefusal.stopped) { try outbox.enqueue(tag: "t", payload: []) }
    let failedAgain = outbox.close()
    #expect(failedAgain.isEmpty)
  }

  @Test func silenceResendsEverythingUnansweredFromTheOldest() throws {
    var (outbox, _) = try aligned(sending: 3)
    _ = outbox.answered(1)
    let early = outbox.rewindIfUnanswered(for: .seconds(1), now: now + .milliseconds(900))
    let notYet = send(&outbox)
    #expect(!early && notYet.isEmpty)
    let late = outbox.rewindIfUnanswered(for: .seconds(1), now: now + .seconds(2))
    let resent = send(&outbox)
    #expect(late && resent == [2, 3])
    // Answered, nothing goes again however long it stays silent.
    _ = outbox.answered(2)
    _ = outbox.answered(3)
    let afterTheAnswers = outbox.rewindIfUnanswered(for: .seconds(1), now: now + .seconds(60))
    #expect(!afterTheAnswers)
  }
}
