import Testing

@testable import TandemProtocol

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
    #expect(throws: OutboxRefusal.outboxFull(capacity: 1)) {
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
