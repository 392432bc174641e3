import Testing

@testable import TandemSync

/// A follower that its leader forgets (idle for more than the ledger's limit) while the delta of
/// its last action is still on its way, and that realigns on its open connection: the `WELCOME`
/// (same epoch, last number 0) numbers its actions from 1 again, and the late delta names the
/// forgotten action by the number another action has now. The updates go through an
/// ``UpdatesRelay`` that holds them back; the control connection does not lag.
@Suite(
  "A follower the leader forgot realigns, and a late delta answers no other action", .serialized)
struct ForgottenClientRealignmentTests {
  /// The follower's actions record the values 0, 1, 2, 3. It is in step, so it sends them
  /// quietly: the one the leader forgets (0, number 1) gets no `ACK`, unless
  /// (`acknowledgedByAResend`) it goes again unanswered and the leader, which still knows the
  /// client, answers the duplicate; then its receipt waits for the replica to show sequence 1.
  @Test(.timeLimit(.minutes(1)), arguments: [false, true])
  func everyReceiptSettlesWithTheSequenceOfItsOwnActionAndNoneIsAppliedTwice(
    acknowledgedByAResend: Bool
  ) async throws {
    let client = "forgotten"
    let directory = try LeaderDirectory()
    let updates = directory.updates
    let relay = try UpdatesRelay()
    defer { relay.stop() }
    let leader = try await makeLeader {
      $0.updates = updates
      $0.advertisedUpdates = relay.endpoint
      $0.ledgerIdleLimit = 3
    }
    relay.start(upstream: updates)
    let follower = try await makeFollower(leader) {
      $0.clientID = client
      $0.resendAfter = acknowledgedByAResend ? .milliseconds(300) : .seconds(60)
    }
    func recorded(_ value: Int) -> Bool { leader.store.state.log[client]?.contains(value) == true }
    // The updates connection lags from here on: the replica stays at 0.
    relay.hold()
    let forgotten = try follower.send(Record(client: client, value: 0))
    await eventually("the leader applied action 1 at 1") { recorded(0) }
    if acknowledgedByAResend {
      try await eventually("the leader acknowledged action 1 sent again") {
        try await follower.statistics().unanswered == 0
      }
    }
    // Idle for more than 3 sequences, the client is forgotten.
    for _ in 0..<5 { leader.store.dispatch(Increment()) }
    try await eventually("the leader published its increments, forgetting the follower") {
      try await leader.statistics().sequence == 6
    }
    // The next action, number 2, is out of order for a leader that expects 1: the follower
    // realigns. The WELCOME says that the leader forgot activity through 1: the unanswered
    // actions, sent while the replica showed 0, may have been applied and are not sent again.
    let outOfOrder = try follower.send(Record(client: client, value: 1))
    await eventually("the realignment's WELCOME answered action 2") {
      outOfOrder.outcome != nil || recorded(1)
    }
    // Sent after the WELCOME, numbered from 1 again: applied at 7 and 8, their deltas held behind
    // the one of the forgotten number 1, at 1.
    let sentAfter = try (2..<4).map { try follower.send(Record(client: client, value: $0)) }
    await eventually("the leader applied the actions sent after the realignment") {
      recorded(2) && recorded(3)
    }
    relay.release()
    let receipts = [forgotten, outOfOrder] + sentAfter
    await eventually("every receipt settled") { receipts.allSatisfy { $0.outcome != nil } }
    let appliedAt = try appliedSequences(of: client, on: leader)
    for (value, receipt) in receipts.enumerated() {
      let sequences = appliedAt[value, default: []]
      let positions =
        "record \(value): \(String(describing: receipt.outcome)), applied at \(sequences)"
      switch receipt.outcome {
      case .success(let sequence):
        // Applied once, and shown by the receipt's sequence: its own, or (answered as a
        // duplicate after a resend) the client's last, which is after it.
        #expect(sequences.count == 1 && sequences[0] <= sequence, "\(positions)")
      case .failure(.outcomeUnknown) where value < 2:
        // Sent before the leader forgot the client: it may have been applied, and is not sent
        // again.
        #expect(sequences.count <= 1, "\(positions)")
      default:
        Issue.record("\(positions)")
      }
    }
    await eventually("the replica shows the leader's state") {
      follower.store.state == leader.store.state
    }
    #expect(try await follower.statistics().realignments == 1)
    await follower.stop()
    await leader.stop()
  }
}

/// The sequences at which `leader` applied `client`'s `test.record` actions, by value: its
/// deltas (a catch-up from 1) say at which sequences the client's actions took effect, its
/// state in which order their values were recorded.
private func appliedSequences(
  of client: String, on leader: Leader<TestState>
) throws -> [Int: [UInt64]] {
  let raw = RawClient(endpoint: leader.controlEndpoint)
  defer { raw.close() }
  guard case .deltas(_, let deltas) = try raw.request(.catchUp(leader.epoch, from: 1)) else {
    Issue.record("expected the leader's deltas from 1")
    return [:]
  }
  let sequences = deltas.flatMap(\.sequencedActions)
    .filter { $0.action.origin.client == client }.map(\.sequence)
  let values = leader.store.state.log[client, default: []]
  #expect(sequences.count == values.count)
  return Dictionary(zip(values, sequences).map { ($0, [$1]) }, uniquingKeysWith: +)
}
