import CommandLineKit
import Synchronization
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

/// `tandem failover`: after the `STEP-DOWN`, it waits for another leader to serve, or says in
/// time that none did and that nothing was lost.
@Suite("tandem failover", .serialized)
struct FailoverTests {
  static func record(_ holder: String, epoch: UInt64, control: String = "") -> LeaseRecord {
    LeaseRecord(
      holder: holder, control: control, updates: "", fencingEpoch: epoch,
      remaining: .seconds(60))
  }

  static func lease(_ holder: String, role: String, epoch: UInt64) -> LeaderStatistics.Lease {
    LeaderStatistics.Lease(
      role: role, holder: holder, control: "tcp://\(holder):1", fencingEpoch: epoch,
      millisecondsLeft: role == "active" ? 1000 : 0)
  }

  /// The old leader answers as handing over, then goes; the standby given next names the new
  /// holder, which serves.
  @Test(.timeLimit(.minutes(1)))
  func failoverWaitsUntilAnotherLeaderServes() async throws {
    let role = Mutex("active")
    let (handOvers, handOver) = AsyncStream.makeStream(of: Void.self)
    let a = try await makeShelfLeader {
      $0.leaseStatus = { Self.lease("a", role: role.withLock { $0 }, epoch: 7) }
      $0.stepDown = {
        role.withLock { $0 = "steppingDown" }
        handOver.yield()
        return Self.record("a", epoch: 7)
      }
    }
    let standby = try await StandbyLeaderTests.standby(naming: a)
    let options = try FailoverOptions(
      arguments: ["--leader", "\(a.controlEndpoint),\(standby.controlEndpoint)", "--timeout", "1"],
      environment: .some(nil))
    let lines = Mutex<[String]>([])
    async let failover = offThePool {
      try Failover.run(options) { line in lines.withLock { $0.append(line) } }
    }
    for await _ in handOvers { break }
    let b = try await makeShelfLeader {
      $0.leaseStatus = { Self.lease("b", role: "active", epoch: 8) }
    }
    standby.redirect(to: Self.record("b", epoch: 8, control: b.controlEndpoint))
    await a.stop()
    let result = try await failover
    #expect(result.from == "a" && result.fromFencingEpoch == 7)
    #expect(result.to.holder == "b" && result.to.fencingEpoch == 8)
    #expect(
      lines.withLock { $0 } == [
        "a (fencing epoch 7) at \(a.controlEndpoint) is handing over; waiting up to 10000 ms "
          + "for another leader to take over"
      ])
    #expect(
      result.summary.hasPrefix("handed over from a (fencing epoch 7) to b (fencing epoch 8) in "))
    #expect(result.summary.hasSuffix(" ms"))
    await standby.stop()
    await b.stop()
  }

  @Test func failoverGivesUpWhenNoOtherLeaderTakesOverAndSaysNothingWasLost() async throws {
    let a = try await makeShelfLeader {
      $0.leaseStatus = { Self.lease("a", role: "steppingDown", epoch: 7) }
      $0.stepDown = { Self.record("a", epoch: 7) }
    }
    let options = try FailoverOptions(
      arguments: ["--leader", a.controlEndpoint, "--timeout-ms", "300"], environment: .some(nil))
    await #expect {
      try await offThePool { try Failover.run(options) { _ in } }
    } throws: { error in
      guard let failure = error as? CommandFailure else { return false }
      return failure.status == .unavailable
        && failure.message.hasPrefix(
          "no other leader took over from a (fencing epoch 7) within 300 ms; last: a leader "
            + "answered as steppingDown, the lease held by a (fencing epoch 7). Nothing was lost")
    }
    await a.stop()
  }

  @Test func theSuccessorIsAnotherHolderServing() throws {
    let rows: [(LeaderStatistics.Lease?, Bool)] = [
      (nil, false),
      (Self.lease("a", role: "active", epoch: 7), false),
      (Self.lease("a", role: "steppingDown", epoch: 7), false),
      (Self.lease("b", role: "recovering", epoch: 8), false),
      (Self.lease("b", role: "active", epoch: 8), true),
    ]
    for (lease, serves) in rows {
      var statistics = try decodeStatistics(
        #"{"epoch":"0000000000000abc","sequence":3,"backlogCount":0,"backlogOldest":0,"#
          + #""counters":{},"followers":[]}"#)
      statistics.lease = lease
      #expect(
        (Failover.successor(in: statistics, replacing: "a") != nil) == serves, "\(lease as Any)")
    }
  }

  @Test func theOptionsTakeTheLeadersAndATimeoutInMilliseconds() throws {
    let defaults = try FailoverOptions(
      arguments: ["--leader", "tcp://a:5600,tcp://b:5600"], environment: .some(nil))
    #expect(defaults.connection.leaders == ["tcp://a:5600", "tcp://b:5600"])
    #expect(defaults.timeout == .seconds(10))
    let short = try FailoverOptions(
      arguments: ["--leader", "tcp://a:5600", "--timeout-ms", "250"], environment: .some(nil))
    #expect(short.timeout == .milliseconds(250))
    for words in [["--timeout-ms", "0"], ["--timeout-ms", "soon"], ["--wait", "1"], ["extra"]] {
      #expect(throws: UsageError.self) {
        try FailoverOptions(
          arguments: ["--leader", "tcp://a:5600"] + words, environment: .some(nil))
      }
    }
  }

  @Test func theCommandEndsWithStatus76ForALeaderWithoutStandbys() async throws {
    let leader = try await makeShelfLeader()
    let run = try await TandemProcess.run(["failover", "--leader", leader.controlEndpoint])
    #expect(run.status == 76)
    #expect(run.output.isEmpty)
    #expect(
      run.error.hasPrefix(
        "tandem failover: the leader at \(leader.controlEndpoint) has no lease to hand over: "
          + "this leader holds no lease: it runs without standby leaders"))
    await leader.stop()
  }
}
