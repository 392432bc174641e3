import Synchronization
import Testing

@testable import TandemSync

/// A leader stopped and started again on the same endpoints within the follower's silence limit:
/// the follower's sockets reconnect by themselves, it sees the new leader's updates without
/// having noticed a loss, and its numbering is realigned (an `out-of-order` answer, `HELLO` on
/// the open connection) rather than rejoined. The updates go through an ``UpdatesRelay``, which
/// drops the stopping leader's `BYE` (a killed leader sends none), so the loss goes unnoticed
/// every time.
@Suite("A follower rejoins a quickly restarted leader on its open connection", .serialized)
struct QuickRestartTests {
  @Test(.timeLimit(.minutes(1)))
  func actionsSentAfterTheRestartAreAppliedOnceInTheNewHistory() async throws {
    let leaders = try await RestartedLeaders()
    let first = leaders.current
    let follower = try await makeFollower(first) { $0.clientID = "after" }
    for value in 0..<3 {
      _ = try await follower.send(Record(client: "after", value: value)).applied()
    }
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: first.epoch, sequence: 3))
    await first.stop()
    let second = try await leaders.startAnother()
    // Unnoticed: the next change is the move to the new history, with no loss before it.
    #expect(await changes.next() == .connected(epoch: second.epoch, sequence: 0))
    // The follower's next number is 4; the new leader expects 1, answers out-of-order, and the
    // realigned follower sends the actions again as 1 to 10.
    let values = Array(3..<13)
    let receipts = try values.map { try follower.send(Record(client: "after", value: $0)) }
    await eventually("every receipt settled") { receipts.allSatisfy { $0.outcome != nil } }
    #expect(second.store.state.log["after"] == values)
    for (index, receipt) in receipts.enumerated() {
      #expect(
        isApplied(receipt.outcome, at: UInt64(index + 1), last: second.sequence),
        "\(String(describing: receipt.outcome))")
    }
    // Read-your-writes: settled, the receipts' sequences are on the replica.
    #expect(follower.store.state == second.store.state)
    #expect(try await follower.statistics().realignments == 1)
    await follower.stop()
    await second.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func actionsTheNewLeaderExpectsAreAnsweredByTheirDeltas() async throws {
    let leaders = try await RestartedLeaders()
    let first = leaders.current
    let follower = try await makeFollower(first) {
      $0.clientID = "fresh"
      // The actions go quietly, and none is sent again: only its delta answers each.
      $0.resendAfter = .seconds(60)
    }
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: first.epoch, sequence: 0))
    await first.stop()
    let second = try await leaders.startAnother()
    #expect(await changes.next() == .connected(epoch: second.epoch, sequence: 0))
    // The follower has sent nothing: its next number, 1, is the one the new leader expects. Its
    // generation is one the new ledger never handed, so the leader judges no number of it
    // before a HELLO: the follower realigns once, and then 1, 2, 3 apply in the new history.
    let receipts = try (0..<3).map { try follower.send(Record(client: "fresh", value: $0)) }
    await eventually("every receipt settled") { receipts.allSatisfy { $0.outcome != nil } }
    #expect(second.store.state.log["fresh"] == [0, 1, 2])
    #expect(receipts.map(\.outcome) == [.success(1), .success(2), .success(3)])
    #expect(try await follower.statistics().realignments == 1)
    await follower.stop()
    await second.stop()
  }

  @Test(.timeLimit(.minutes(1)), arguments: [false, true])
  func actionsInFlightAcrossTheRestartAreAppliedAtMostOnceAndEveryReceiptSettles(
    losingTheLastUpdates: Bool
  ) async throws {
    let burst = try await BurstAcrossARestart(losingTheLastUpdates: losingTheLastUpdates)
    let (first, second) = (burst.first, burst.second)
    // Each leader applied the actions it got once each, in the order they were sent; the first
    // one's memory is gone, so the second may apply again what the first applied unanswered.
    let onFirst = first.store.state.log[burst.client, default: []]
    let onSecond = second.store.state.log[burst.client, default: []]
    #expect(isIncreasing(onFirst) && isIncreasing(onSecond))
    for (value, receipt) in burst.receipts.enumerated() {
      // Only the follower's actions are applied: the one at index i of a log took sequence i + 1.
      let sequenceOnFirst = onFirst.firstIndex(of: value).map { UInt64($0 + 1) }
      let sequenceOnSecond = onSecond.firstIndex(of: value).map { UInt64($0 + 1) }
      let appliedBySecond = isApplied(receipt.outcome, at: sequenceOnSecond, last: second.sequence)
      let positions =
        "\(String(describing: receipt.outcome)), at \(String(describing: sequenceOnFirst)) on "
        + "the first leader, \(String(describing: sequenceOnSecond)) on the second"
      if value >= burst.sentBeforeTheStop {
        // Sent after the first leader stopped: the second one applied it, once, and said so.
        #expect(sequenceOnFirst == nil && appliedBySecond, "action \(value): \(positions)")
        continue
      }
      switch receipt.outcome {
      case .success:
        // Applied where the replica showed it: in the history that answered it.
        let appliedByFirst = isApplied(receipt.outcome, at: sequenceOnFirst, last: first.sequence)
        #expect(appliedBySecond || appliedByFirst, "action \(value): \(positions)")
      case .failure(.historyLost):
        // Acknowledged by the first leader, lost with its history before the replica showed it.
        #expect(sequenceOnFirst != nil && sequenceOnSecond == nil, "action \(value): \(positions)")
      default:
        Issue.record("action \(value): \(positions)")
      }
    }
    await eventually("the replica shows the second leader's state") {
      burst.follower.store.state == second.store.state
    }
    await burst.follower.stop()
    await second.stop()
  }

  @Test(.timeLimit(.minutes(1)), arguments: [false, true])
  func aLeaderRestartedFromItsJournalAppliesEveryActionInFlightExactlyOnce(
    losingTheLastUpdates: Bool
  ) async throws {
    let burst = try await BurstAcrossARestart(
      durable: true, losingTheLastUpdates: losingTheLastUpdates)
    let second = burst.second
    #expect(second.epoch == burst.first.epoch)
    // The second leader continues the first one's history and ledger: every action applied
    // once, in order, none lost, each at the sequence its receipt says.
    #expect(second.store.state.log[burst.client] == Array(0..<burst.receipts.count))
    for (value, receipt) in burst.receipts.enumerated() {
      #expect(
        isApplied(receipt.outcome, at: UInt64(value + 1), last: second.sequence),
        "action \(value): \(String(describing: receipt.outcome))")
    }
    await eventually("the replica shows the second leader's state") {
      burst.follower.store.state == second.store.state
    }
    await burst.follower.stop()
    await second.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aDeltaOfTheLostHistoryArrivingAfterTheRealignmentAnswersNoAction() async throws {
    let leaders = try await RestartedLeaders()
    let first = leaders.current
    // The first leader's sequences run ahead of the second one's.
    for _ in 0..<5 { first.store.dispatch(Increment()) }
    let follower = try await makeFollower(first) { $0.clientID = "late" }
    #expect(try await follower.send(Record(client: "late", value: 0)).applied() == 6)
    // The updates connection lags: the delta of action 2 (applied at 7) is still on its way
    // when the leader stops.
    leaders.relay.hold()
    let appliedUnseen = try follower.send(Record(client: "late", value: 1))
    await eventually("the first leader applied action 2") {
      first.store.state.log["late"] == [0, 1]
    }
    await first.stop()
    let second = try await leaders.startAnother()
    // Action 3 is out of order for the new leader: the follower realigns on the open connection
    // and sends its two unanswered actions again as 1 and 2.
    let sentAfter = try follower.send(Record(client: "late", value: 2))
    await eventually("the second leader applied both actions") {
      second.store.state.log["late"] == [1, 2]
    }
    // The late delta names action 2 of the lost history, not the new action 2.
    leaders.relay.release()
    await eventually("both receipts settled") {
      appliedUnseen.outcome != nil && sentAfter.outcome != nil
    }
    #expect(isApplied(appliedUnseen.outcome, at: 1, last: 2))
    #expect(sentAfter.outcome == .success(2))
    await eventually("the replica shows the second leader's state") {
      follower.store.state == second.store.state
    }
    await follower.stop()
    await second.stop()
  }
}

/// Whether `outcome` says that the action was applied in a history where it took `sequence`
/// and which ended at `last`: at that sequence, or, answered as a duplicate, at its client's last
/// applied action's (the protocol's "Dispatch").
private func isApplied(
  _ outcome: Result<UInt64, FollowerError>?, at sequence: UInt64?, last: UInt64
) -> Bool {
  guard case .success(let answered) = outcome, let sequence else { return false }
  return (sequence...last).contains(answered)
}

/// Whether every element is greater than the one before it.
private func isIncreasing(_ values: [Int]) -> Bool {
  zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
}

/// A follower sending actions, one after another, while its leader stops and another starts at
/// once on its endpoints: some reach the first leader, some are lost in flight, the rest reach
/// the second.
private struct BurstAcrossARestart {
  let client = "burst"
  /// The leaders, with the relay their followers' updates go through.
  let leaders: RestartedLeaders
  let first: Leader<TestState>
  let second: Leader<TestState>
  let follower: Follower<TestState>
  /// The receipts of the actions, `test.record` of the client with values 0, 1, 2...: that of
  /// value i at index i. Every one has settled.
  let receipts: [Receipt]
  /// How many actions were sent before the first leader had stopped: the later ones only the
  /// second leader can have applied.
  let sentBeforeTheStop: Int

  /// Runs the burst: a leader with a journal if `durable`; `losingTheLastUpdates` drops what
  /// the first leader publishes in its last moments, as a killed leader's last deltas can be.
  init(durable: Bool = false, losingTheLastUpdates: Bool) async throws {
    leaders = try await RestartedLeaders(durable: durable)
    first = leaders.current
    follower = try await makeFollower(first) { [client] in $0.clientID = client }
    let sender = BurstSender(follower)
    let sending = Task { [sender] in try await sender.run() }
    await eventually("the first leader applied some of the burst") { [first, client] in
      first.store.state.log[client, default: []].count >= 20
    }
    if losingTheLastUpdates { leaders.relay.hold() }
    await first.stop()
    sentBeforeTheStop = sender.sent
    if losingTheLastUpdates { leaders.relay.release(droppingHeld: true) }
    second = try await leaders.startAnother()
    await eventually("the second leader applied some of the actions sent after the stop") {
      [second, client, sentBeforeTheStop] in
      second.store.state.log[client, default: []].filter { $0 >= sentBeforeTheStop }.count >= 20
    }
    sender.stop()
    receipts = try await sending.value
    await eventually("every receipt settled") { [receipts] in
      receipts.allSatisfy { $0.outcome != nil }
    }
  }
}

/// Leaders of ``TestState`` started one after another on the endpoints the first one bound,
/// each announcing one ``UpdatesRelay`` as its updates endpoint: a control endpoint on tcp
/// (port 0 at the first start), and an updates endpoint on ipc for the relay (a leader that
/// announces another endpoint does not say which port it bound).
final class RestartedLeaders {
  let relay: UpdatesRelay
  /// The latest leader started.
  private(set) var current: Leader<TestState>
  /// The leaders' journal (when they keep one) and updates endpoint.
  private let directory: LeaderDirectory
  private let durable: Bool

  /// Starts the first leader, with a journal if `durable`.
  init(durable: Bool = false) async throws {
    directory = try LeaderDirectory()
    self.durable = durable
    relay = try UpdatesRelay()
    current = try await Self.start(
      control: "tcp://127.0.0.1:*", updates: directory.updates, relay: relay.endpoint,
      journal: durable ? directory.journal : nil)
    relay.start(upstream: directory.updates)
  }

  /// Starts another leader on the current one's endpoints, once it has stopped: trying again
  /// (for a few seconds at most) while the stopped leader's port is not free yet.
  func startAnother() async throws -> Leader<TestState> {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
      do {
        current = try await Self.start(
          control: current.controlEndpoint, updates: directory.updates, relay: relay.endpoint,
          journal: durable ? directory.journal : nil)
        return current
      } catch LeaderError.cannotBind where ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
    }
  }

  private static func start(
    control: String, updates: String, relay: String, journal: String?
  ) async throws -> Leader<TestState> {
    try await makeLeader {
      $0.control = control
      $0.updates = updates
      $0.advertisedUpdates = relay
      $0.journalPath = journal
    }
  }

  deinit {
    relay.stop()
  }
}

/// Sends `test.record` actions numbered 0, 1, 2... through a follower, as fast as it answers
/// (at most ``window`` unsettled), until stopped.
private final class BurstSender: Sendable {
  static let window = 1000
  private let follower: Follower<TestState>
  private let count = Atomic(0)
  private let stopping = Flag()

  init(_ follower: Follower<TestState>) {
    self.follower = follower
  }

  /// How many actions were sent so far.
  var sent: Int { count.load(ordering: .sequentiallyConsistent) }

  /// Sends until ``stop()``; returns the receipts, that of action i at index i.
  func run() async throws -> [Receipt] {
    var receipts: [Receipt] = []
    var oldestUnsettled = 0
    while !stopping.isRaised {
      while oldestUnsettled < receipts.count, receipts[oldestUnsettled].outcome != nil {
        oldestUnsettled += 1
      }
      guard receipts.count - oldestUnsettled < Self.window else {
        try await Task.sleep(for: .milliseconds(1))
        continue
      }
      let action = Record(client: follower.clientID, value: receipts.count)
      receipts.append(try follower.send(action))
      count.store(receipts.count, ordering: .sequentiallyConsistent)
      await Task.yield()
    }
    return receipts
  }

  func stop() { stopping.raise() }
}
