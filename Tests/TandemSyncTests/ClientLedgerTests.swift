
@testable import TandemProtocol
@testable import TandemSync
import Testing

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

@Suite("Outbox")
struct OutboxTests {
  let now = ContinuousClock.now
  let epoch = Epoch(rawValue: 7)

  @Test func sendsEachActionOnceUntilARewind() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<3 { _ = try outbox.enqueue(tag: "t", payload: []) }
    let sent = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent.map(\.number) == [1, 2, 3])
    _ = try outbox.enqueue(tag: "t", payload: [])
    let sent2 = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent2.map(\.number) == [4])
    let answered = outbox.answered(1)
    #expect(answered?.number == 1)
    let sent3 = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent3.isEmpty)
    outbox.rewind()
    let sent4 = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent4.map(\.number) == [2, 3, 4])
  }

  @Test func onlyAnUnansweredQuietSendRewindsAfterASnapshot() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<2 { _ = try outbox.enqueue(tag: "t", payload: []) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    let afterLoudSends = outbox.rewindIfSentQuietly()
    #expect(!afterLoudSends)
    _ = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: true)
    let afterAQuietSend = outbox.rewindIfSentQuietly()
    #expect(afterAQuietSend)
    // Sent again loudly, nothing unanswered was sent quietly any more.
    let resent = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(resent.map(\.number) == [1, 2, 3])
    let afterTheLoudResend = outbox.rewindIfSentQuietly()
    #expect(!afterTheLoudResend)
    // An answered quiet send leaves nothing to repeat.
    for number: UInt64 in 1...3 { _ = outbox.answered(number) }
    _ = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: true)
    _ = outbox.answered(4)
    let afterTheAnswer = outbox.rewindIfSentQuietly()
    #expect(!afterTheAnswer)
  }

  @Test func nothingIsSentBeforeTheNumberingIsAligned() throws {
    var outbox = Outbox(capacity: 10)
    _ = try outbox.enqueue(tag: "t", payload: [])
    let sent5 = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent5.isEmpty)
    _ = outbox.welcome(
      lastNumber: 41, forgottenThrough: 0, epoch: epoch, sequence: 0)
    let sent6 = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent6.map(\.number) == [42])
  }

  @Test func aRealignmentHoldsSendsUntilItsWelcome() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<3 { _ = try outbox.enqueue(tag: "t", payload: []) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    let started = outbox.realign(now: now)
    let startedAgain = outbox.realign(now: now)
    #expect(started && !startedAgain)
    _ = try outbox.enqueue(tag: "t", payload: [])
    #expect(outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false).isEmpty)
    #expect(outbox.realignmentTimedOut(after: .seconds(1), now: now + .seconds(2)))
    // The leader still has the numbering: everything unanswered goes again, as numbered.
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    #expect(!outbox.realignmentTimedOut(after: .seconds(1), now: now + .seconds(2)))
    let resent = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(resent.map(\.number) == [1, 2, 3, 4])
    // The leader forgot the client (its last number is below the oldest unanswered − 1): the
    // unanswered actions are numbered again from its last number + 1.
    _ = outbox.answered(1)
    _ = outbox.answered(2)
    _ = outbox.realign(now: now)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    let renumbered = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(renumbered.map(\.number) == [1, 2])
  }

  @Test func aSendThatCouldNotBeQueuedGoesAgainWithTheOnesAfterIt() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<3 { _ = try outbox.enqueue(tag: "t", payload: []) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    outbox.unsend(from: 2)
    let again = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(again.map(\.number) == [2, 3])
    #expect(outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false).isEmpty)
  }

  @Test func aFullOutboxRefuses() throws {
    var outbox = Outbox(capacity: 1)
    _ = try outbox.enqueue(tag: "t", payload: [])
    #expect(throws: FollowerError.outboxFull(capacity: 1)) {
      try outbox.enqueue(tag: "t", payload: [])
    }
  }

  @Test func aLeaderThatForgotTheClientAtAReconnectLeavesTheSentActionsInDoubt() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(
      lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<4 { _ = try outbox.enqueue(tag: "t", payload: []) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    _ = outbox.answered(1)
    _ = try outbox.enqueue(tag: "t", payload: [])
    // Reconnected, the leader of the same history no longer knows the client (it answered 1)
    // and forgot clients active after 2 to 4 went out on the old connection: they may have been
    // applied; 5 never went out.
    let inDoubt = outbox.welcome(
      lastNumber: 0, forgottenThrough: 3, epoch: epoch, sequence: 0)
    #expect(inDoubt.map(\.number) == [2, 3, 4])
    let sent = outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false)
    #expect(sent.map(\.number) == [1])
    #expect(outbox.entries.count == 1)
  }

  @Test func anUnknownClientsActionsAreInDoubtOnlyWhenSentBeforeTheForgottenActivity() throws {
    // None of the actions was answered, so only the ledger's forgotten-through sequence tells an
    // action applied and forgotten from one that never arrived.
    for (forgottenThrough, expectedInDoubt) in [(UInt64(0), [UInt64]()), (10, []), (11, [1, 2])] {
      var outbox = Outbox(capacity: 10)
      _ = outbox.welcome(
        lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
      for _ in 0..<2 { _ = try outbox.enqueue(tag: "t", payload: []) }
      _ = outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: false)
      _ = try outbox.enqueue(tag: "t", payload: [])
      let inDoubt = outbox.welcome(
        lastNumber: 0, forgottenThrough: forgottenThrough, epoch: epoch, sequence: 0)
      #expect(inDoubt.map(\.number) == expectedInDoubt)
      // What is not in doubt goes again, numbered from 1.
      let sent = outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: false)
      #expect(sent.map(\.number) == Array(1...UInt64(3 - expectedInDoubt.count)))
    }
  }

  @Test func anActionSentBeforeTheReplicaShowedTheHistoryCountsFromTheWelcomesSequence() throws {
    for (forgottenThrough, expectedInDoubt) in [(UInt64(5), [UInt64]()), (6, [1])] {
      var outbox = Outbox(capacity: 10)
      _ = outbox.welcome(
        lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 5)
      _ = try outbox.enqueue(tag: "t", payload: [])
      // Sent before the replica's snapshot of the WELCOME's history came: its sequence (99)
      // belongs to another history, but the leader was at 5 when it welcomed the follower.
      _ = outbox.takeUnsent(
        now: now, replica: (Epoch(rawValue: 1), 99), client: "c", quietly: false)
      let inDoubt = outbox.welcome(
        lastNumber: 0, forgottenThrough: forgottenThrough, epoch: epoch, sequence: 9)
      #expect(inDoubt.map(\.number) == expectedInDoubt)
    }
  }

  @Test func aNewHistoryOrARealignmentRenumbersEverySentAction() throws {
    for epoch in [Epoch(rawValue: 8), epoch] {
      var outbox = Outbox(capacity: 10)
      _ = outbox.welcome(lastNumber: 4, forgottenThrough: 0, epoch: self.epoch, sequence: 0)
      for _ in 0..<3 { _ = try outbox.enqueue(tag: "t", payload: []) }
      #expect(
        outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false).map(\.number)
          == [5, 6, 7])
      _ = outbox.answered(5)
      // A new epoch lost the history 6 and 7 went to; a realignment's WELCOME comes after the
      // out-of-order answers to both, on the same connection, and the ledger forgot no client.
      let inDoubt = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
      #expect(inDoubt.isEmpty)
      #expect(
        outbox.takeUnsent(now: now, replica: (epoch, 0), client: "c", quietly: false).map(\.number)
          == [1, 2])
    }
  }

  @Test func aRealignmentAfterTheLeaderForgotTheClientLeavesAQuietSendInDoubt() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    _ = try outbox.enqueue(tag: "t", payload: [])
    // Sent quietly at replica sequence 10: the leader applies it at 11 and answers nothing; the
    // replica has not shown 11 when the leader, idle-evicting, forgets the client.
    _ = outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: true)
    _ = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: true)
    // Action 2 is answered out-of-order (the leader expects 1 of a client it does not know):
    // the realignment's WELCOME, on the same connection, says the client's activity through 11
    // was forgotten. Both may have been applied; neither goes again.
    _ = outbox.realign(now: now)
    let inDoubt = outbox.welcome(lastNumber: 0, forgottenThrough: 11, epoch: epoch, sequence: 30)
    #expect(inDoubt.map(\.number) == [1, 2])
    #expect(outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: false).isEmpty)
  }

  @Test func aDeltaSettlesAnActionOnlyWhenItCameAfterTheActionWasSentUnderItsNumber() throws {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 0)
    for _ in 0..<2 { _ = try outbox.enqueue(tag: "t", payload: []) }
    _ = outbox.takeUnsent(now: now, replica: (epoch, 10), client: "c", quietly: false)
    _ = outbox.answered(1)
    // The leader forgot the client; the realignment's WELCOME at 30 gives number 1 to the second
    // action, which goes again after it. The first action's delta at 12, still on its way,
    // names it by its old number 1, and the renumbered one cannot have been applied before 30.
    _ = outbox.realign(now: now)
    _ = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: 30)
    let unsent = outbox.applied(1, epoch: epoch, sequence: 12)
    #expect(unsent == nil)
    _ = outbox.takeUnsent(now: now, replica: (epoch, 12), client: "c", quietly: false)
    let stale = outbox.applied(1, epoch: epoch, sequence: 12)
    let otherHistory = outbox.applied(1, epoch: Epoch(rawValue: 8), sequence: 31)
    #expect(stale == nil && otherHistory == nil)
    let applied = outbox.applied(1, epoch: epoch, sequence: 31)
    #expect(applied?.number == 1)
    #expect(outbox.entries.isEmpty)
  }

  @Test func deltasOfAHistoryTheReplicaFollowedWithoutAWelcomeSettleTheActions() throws {
    var outbox = try outboxWithOneQuietSend(atSequence: 50)
    // A leader restarted with a new history behind the open connection expects number 1: no
    // WELCOME comes, and its snapshot at 0 replaces the replica. Action 1 may have gone to it.
    let restarted = Epoch(rawValue: 8)
    outbox.followReplica(into: restarted, at: 0)
    _ = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.takeUnsent(now: now, replica: (restarted, 3), client: "c", quietly: true)
    #expect(outbox.applied(1, epoch: restarted, sequence: 1)?.number == 1)
    #expect(outbox.applied(2, epoch: restarted, sequence: 3) == nil)
    #expect(outbox.applied(2, epoch: restarted, sequence: 4)?.number == 2)
  }

  @Test func aWelcomeOfAnotherHistoryThatRenumbersNothingLetsItsDeltasSettleTheActions() throws {
    var outbox = try outboxWithOneQuietSend(atSequence: 50)
    // The leader restarted with a new history and the follower joined it again: its ledger
    // expects number 1, the oldest unanswered, so nothing is renumbered. Action 1 goes again,
    // quietly, and its delta at 3 is the only answer it gets.
    let restarted = Epoch(rawValue: 8)
    let inDoubt = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: restarted, sequence: 2)
    #expect(inDoubt.isEmpty)
    let resent = outbox.takeUnsent(now: now, replica: (restarted, 2), client: "c", quietly: true)
    #expect(resent.map(\.number) == [1])
    #expect(outbox.applied(1, epoch: restarted, sequence: 3)?.number == 1)
  }

  /// An outbox aligned at `sequence` of ``epoch`` whose action 1 went quietly from there.
  private func outboxWithOneQuietSend(atSequence sequence: UInt64) throws -> Outbox {
    var outbox = Outbox(capacity: 10)
    _ = outbox.welcome(lastNumber: 0, forgottenThrough: 0, epoch: epoch, sequence: sequence)
    _ = try outbox.enqueue(tag: "t", payload: [])
    _ = outbox.takeUnsent(now: now, replica: (epoch, sequence), client: "c", quietly: true)
    return outbox
  }
}
