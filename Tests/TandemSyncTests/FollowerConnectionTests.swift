
import StatePatch
import Synchronization
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("A follower reports losing its leader and following it again", .serialized)
struct FollowerConnectionTests {
  @Test(.timeLimit(.minutes(1)))
  func aSilentLeaderIsLostOnceAndFollowedAgainWhenItAnswers() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await ProtocolConformanceTests().join(
      leader, document: ["n": 0], silenceLimit: .seconds(2))
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: leader.epoch, sequence: 5))
    // The leader says nothing, as one killed would: the follower reports the loss once, though
    // the HELLO it says again goes unanswered and it reconnects a second time.
    let rejoined = Flag()
    let script = ThreadTask { try leader.answerTheSecondHello(until: rejoined) }
    let lost = await changes.next()
    guard case .lost(let reason)? = lost else {
      Issue.record("expected the loss, got \(String(describing: lost))")
      return
    }
    #expect(reason.contains("silent"))
    // The next change is the rejoin (same epoch, nothing missed): no second loss before it.
    #expect(await changes.next() == .connected(epoch: leader.epoch, sequence: 5))
    rejoined.raise()
    #expect(try await script.value >= 2)
    #expect(try await follower.statistics().reconnects >= 2)
    await follower.stop()
    #expect(await changes.next() == nil)
  }

  @Test(.timeLimit(.minutes(1)))
  func aLeaderRestartedWithANewHistoryIsFollowedAtItsEpoch() async throws {
    // ipc endpoints: the restarted leader binds them again, where a tcp port may be taken.
    let directory = try LeaderDirectory()
    let (control, updates) = (directory.control, directory.updates)
    let leader = try await makeLeader {
      $0.control = control
      $0.updates = updates
    }
    let follower = try await makeFollower(leader)
    let sequence = try await follower.send(Increment()).applied()
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: leader.epoch, sequence: sequence))
    await leader.stop()
    // The leader's BYE says why, unless it was lost: then its silence does.
    let lost = await changes.next()
    guard case .lost? = lost else {
      Issue.record("expected the loss, got \(String(describing: lost))")
      return
    }
    let restarted = try await makeLeader {
      $0.control = control
      $0.updates = updates
    }
    let rejoined = await changes.next()
    #expect(
      rejoined == .connected(epoch: restarted.epoch, sequence: 0), "\(String(describing: rejoined))"
    )
    await follower.stop()
    #expect(await changes.next() == nil)
    await restarted.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func aLeaderRestartedUnnoticedWithANewHistoryIsReportedAtItsEpoch() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await ProtocolConformanceTests().join(leader, document: ["n": 0])
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: leader.epoch, sequence: 5))
    // A leader that came back at the same endpoints before its silence was noticed: its
    // heartbeat names a new history, and it answers the follower's SNAPSHOT with it.
    let (restarted, document): (Epoch, JSONValue) = (Epoch(rawValue: 0xBEEF), ["n": 7])
    try await offThePool {
      try leader.publish(.heartbeat(restarted, sequence: 2, stateHash: document.canonicalHash()))
      let request = try leader.nextRequest()
      guard request == .snapshot else {
        throw ProtocolViolation("expected SNAPSHOT, got \(request)")
      }
      try leader.reply(
        .state(
          restarted, sequence: 2, stateHash: document.canonicalHash(),
          document: document.canonicalBytes()))
    }
    // No loss was seen, but the history changed under the replica: that is a change too.
    #expect(await changes.next() == .connected(epoch: restarted, sequence: 2))
    #expect(follower.store.state == document)
    #expect(follower.stopReason == nil)
    await follower.stop()
    #expect(await changes.next() == nil)
    #expect(follower.stopReason == .stopped)
  }

  @Test(.timeLimit(.minutes(1)))
  func aFollowerTheLeaderRefusesAtItsRejoinStopsAndSaysWhy() async throws {
    let leader = try ScriptedLeader()
    defer { leader.close() }
    let follower = try await ProtocolConformanceTests().join(leader, document: ["n": 0])
    var changes = try await follower.connectionChanges().makeAsyncIterator()
    #expect(await changes.next() == .connected(epoch: leader.epoch, sequence: 5))
    // The leader says it is stopping; the one the follower rejoins speaks another protocol.
    let refusal = ControlReply.error(code: .version, message: "this leader speaks TSP/9")
    try await offThePool {
      try leader.publish(.bye(leader.epoch, sequence: 5))
      let request = try leader.nextRequest()
      guard case .hello = request else { throw ProtocolViolation("expected HELLO, got \(request)") }
      try leader.reply(refusal)
    }
    #expect(await changes.next() == .lost(reason: "the leader is stopping"))
    // The follower stops by itself: the stream ends, and the follower says why.
    #expect(await changes.next() == nil)
    #expect(follower.stopReason == .refused(code: .version, message: "this leader speaks TSP/9"))
    await follower.stop()
    #expect(follower.stopReason == .refused(code: .version, message: "this leader speaks TSP/9"))
  }
}

extension ScriptedLeader {
  /// Leaves the first `HELLO` unanswered (the follower reconnects again when its join times
  /// out), welcomes the second at the epoch and sequence 5 the follower already has, then
  /// publishes heartbeats until `done`. Returns how many `HELLO`s came.
  func answerTheSecondHello(until done: Flag) throws -> Int {
    let document: JSONValue = ["n": 0]
    var hellos = 0
    let deadline = ContinuousClock.now + .seconds(40)
    while !done.isRaised, ContinuousClock.now < deadline {
      while try updates.receiveParts(wait: .nonBlocking) != nil {}
      if hellos >= 2 {
        try publish(.heartbeat(epoch, sequence: 5, stateHash: document.canonicalHash()))
      }
      guard case .hello? = try nextRequest(within: .milliseconds(50)) else { continue }
      hellos += 1
      guard hellos >= 2 else { continue }
      try reply(
        .welcome(
          epoch, sequence: 5, lastNumber: 0, forgottenThrough: 0, heartbeatMilliseconds: 100,
          updates: updatesEndpoint))
    }
    return hellos
  }
}

/// A flag one thread raises and another reads.
final class Flag: Sendable {
  private let raised = Atomic(false)

  func raise() { raised.store(true, ordering: .sequentiallyConsistent) }

  var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}
