import Testing

@testable import TandemProtocol

/// ``LeaderProtocol``'s verdicts on forwarded actions, and the replies it holds until their
/// batch commits or fails to: inputs and the effects they return, without sockets or sleeps.
@Suite("Leader protocol: dispatch and commit")
struct LeaderDispatchTests {
  typealias F = LeaderFixture

  static func origin(_ number: UInt64) -> Origin {
    Origin(client: "c", number: number, generation: 5)
  }

  static func ack(_ number: UInt64, at sequence: UInt64) -> ControlReply {
    .ack(client: "c", number: number, F.epoch, sequence: sequence)
  }

  struct DiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
  }

  @Test("a dispatch on a connection a later HELLO replaced is refused as superseded")
  func supersededConnection() {
    var fixture = F()
    fixture.welcome(on: F.a)
    fixture.welcome(generation: 5, on: F.b)
    let effects = fixture.receive(.dispatch(F.action(1)), from: F.a)
    #expect(
      effects.actions == [
        .replyAfterCommit(
          to: F.a,
          .error(
            code: .superseded, message: "another connection said HELLO for client c after this one"),
          quiet: false)
      ])
    #expect(effects.counted == [.supersededDispatch])
    #expect(fixture.ledger.ledger.lastNumber(of: "c") == 0)
  }

  @Test("a dispatch of a process another one took the id over from gets no verdict")
  func supersededGeneration() {
    var fixture = F()
    fixture.ledger.ledger.recordApplied(client: "c", number: 1, sequence: 1)
    fixture.ledger.ledger.own("c", generation: 10, now: 1)
    // The old process's duplicate of number 1 must not be answered as the new one's.
    let effects = fixture.receive(.dispatch(F.action(1, generation: 5)))
    #expect(effects.errorCode == .superseded)
    #expect(effects.counted == [.supersededDispatch])
    #expect(
      !effects.contains { if case .replyAfterCommit(_, .ack, _) = $0 { true } else { false } })
  }

  @Test("an applied action's ACK is held, then sent after its delta is published")
  func appliedThenCommitted() {
    var fixture = F()
    fixture.welcome()
    let dispatched = fixture.receive(.dispatch(F.action(1)))
    #expect(dispatched == [.apply(F.action(1), Self.origin(1), from: F.a, quietly: false)])
    let applied = fixture.applied(F.action(1), result: .success(1))
    #expect(applied.actions == [.replyAfterCommit(to: F.a, Self.ack(1, at: 1), quiet: false)])
    #expect(applied.counted.isEmpty)
    let delta = F.delta(1)
    let committed = fixture.committed(sequence: 1, deltas: [delta])
    #expect(
      committed == [
        .publish(.delta(F.epoch, delta)), .count(.deltasPublished(1)),
        .count(.actionsApplied(1)), .reply(to: F.a, Self.ack(1, at: 1)),
      ])
    #expect(fixture.core.sequence == 1)
    #expect(fixture.core.held.isEmpty)
  }

  @Test("a duplicate is answered with the client's sequence")
  func duplicate() {
    var fixture = F()
    fixture.welcome()
    _ = fixture.applied(F.action(1), result: .success(4))
    let effects = fixture.receive(.dispatch(F.action(1)))
    #expect(effects.actions == [.replyAfterCommit(to: F.a, Self.ack(1, at: 4), quiet: false)])
    #expect(effects.counted == [.duplicate])
  }

  @Test("a rejected action uses its number up, and is rejected again when resent")
  func rejectedAgain() {
    var fixture = F()
    fixture.welcome()
    let refusal = Rejection(code: .refused, message: "no")
    let first = fixture.applied(F.action(1), result: .failure(refusal))
    let reject = ControlReply.reject(client: "c", number: 1, refusal)
    #expect(first.actions == [.replyAfterCommit(to: F.a, reject, quiet: false)])
    #expect(first.counted == [.actionRejected(.refused)])
    #expect(fixture.ledger.ledger.lastNumber(of: "c") == 1)
    let again = fixture.receive(.dispatch(F.action(1)))
    #expect(again.actions == [.replyAfterCommit(to: F.a, reject, quiet: false)])
    #expect(again.counted == [.duplicate])
  }

  @Test("an application's out-of-order refusal is sent as refused: the number is used up")
  func applicationOutOfOrder() {
    var fixture = F()
    fixture.welcome()
    let effects = fixture.applied(
      F.action(1), result: .failure(Rejection(code: .outOfOrder, message: "later")))
    let expected = Rejection(code: .refused, message: "later")
    #expect(
      effects.actions == [
        .replyAfterCommit(to: F.a, .reject(client: "c", number: 1, expected), quiet: false)
      ])
  }

  @Test("a gap is refused out of order without using a number up")
  func outOfOrder() {
    var fixture = F()
    fixture.welcome()
    let effects = fixture.receive(.dispatch(F.action(3)))
    let rejection = Rejection(code: .outOfOrder, message: "expected action number 1, got 3")
    #expect(
      effects.actions == [
        .replyAfterCommit(to: F.a, .reject(client: "c", number: 3, rejection), quiet: false)
      ])
    #expect(effects.counted == [.outOfOrder])
    #expect(fixture.ledger.ledger.lastNumber(of: "c") == 0)
  }

  @Test("a quiet dispatch is answered only by its delta")
  func quiet() {
    var fixture = F()
    fixture.welcome()
    let dispatched = fixture.receive(.dispatchQuietly(F.action(1)))
    #expect(dispatched == [.apply(F.action(1), Self.origin(1), from: F.a, quietly: true)])
    let applied = fixture.applied(F.action(1), quietly: true, result: .success(1))
    #expect(applied.actions == [.replyAfterCommit(to: F.a, Self.ack(1, at: 1), quiet: true)])
    let delta = F.delta(1)
    let committed = fixture.committed(sequence: 1, deltas: [delta])
    #expect(committed.actions == [.publish(.delta(F.epoch, delta))])
  }

  @Test("a batch that fails to commit turns its held ACKs, quiet ones too, into rejections")
  func commitFailed() {
    var fixture = F()
    fixture.welcome()
    _ = fixture.receive(.dispatch(F.action(1)))
    _ = fixture.applied(F.action(1), result: .success(1))
    _ = fixture.committed(sequence: 1, deltas: [F.delta(1)])
    let before = fixture.ledger.ledger
    // The batch: number 2 quietly, a duplicate of number 1 (answered with the batch's
    // sequence 2), then number 3.
    _ = fixture.applied(F.action(2), quietly: true, result: .success(2))
    let duplicate = fixture.receive(.dispatch(F.action(1)))
    #expect(duplicate.actions == [.replyAfterCommit(to: F.a, Self.ack(1, at: 2), quiet: false)])
    _ = fixture.applied(F.action(3), result: .success(3))
    var effects: [LeaderEffect] = []
    let actions = [2, 3].map { AppliedAction(origin: Self.origin($0), tag: "add") }
    fixture.core.commitFailed(actions, restoring: before, because: DiskFull(), into: &effects)
    let rejection = LeaderProtocol.commitFailure(DiskFull())
    #expect(rejection.code == .commitFailed)
    #expect(
      effects.actions == [
        .reply(to: F.a, .reject(client: "c", number: 2, rejection)),
        .reply(to: F.a, Self.ack(1, at: 1)),
        .reply(to: F.a, .reject(client: "c", number: 3, rejection)),
      ])
    #expect(
      effects.counted == [
        .commitFailure, .actionRejected(.commitFailed), .actionRejected(.commitFailed),
      ])
    #expect(fixture.core.sequence == 1)
    #expect(fixture.core.held.isEmpty)
    // Nothing of the failed batch counts as applied, not even at the next commit.
    _ = fixture.applied(F.action(4), result: .success(2))
    #expect(
      fixture.committed(sequence: 2, deltas: [F.delta(2)]).counted.contains(.actionsApplied(1)))
  }

  @Test("a batch of several deltas is published as one DELTAS message")
  func publishSeveral() {
    var fixture = F()
    let deltas = (1...3).map { F.delta(UInt64($0)) }
    let effects = fixture.committed(sequence: 3, deltas: deltas)
    #expect(effects == [.publish(.deltas(F.epoch, deltas)), .count(.deltasPublished(3))])
    #expect(fixture.core.backlog.count == 3)
  }
}
