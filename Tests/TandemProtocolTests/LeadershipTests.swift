import Testing

@testable import TandemProtocol

/// The lease rules of standby leaders, transition by transition: each test drives a
/// ``Leadership`` with lease answers and ticks at stated times and checks the effects and
/// the phase, without an arbiter.
@Suite("Leadership: lease, takeover, renewal, demotion, hand-over")
struct LeadershipTests {
  let t0 = ContinuousClock.now
  let length = Duration.milliseconds(1500)

  func ms(_ value: Int) -> ContinuousClock.Instant { t0 + .milliseconds(value) }

  func record(
    _ holder: String = "me", epoch: UInt64 = 5, remaining: Duration = .milliseconds(1500)
  ) -> LeaseRecord {
    LeaseRecord(
      holder: holder, control: "tcp://\(holder):1", updates: "tcp://\(holder):2",
      fencingEpoch: epoch, remaining: remaining)
  }

  func quiet(_ effects: [LeadershipEffect]) -> [LeadershipEffect] {
    effects.filter {
      if case .log = $0 { return false }
      return true
    }
  }

  var configuration: Leadership.Configuration {
    Leadership.Configuration(leaderID: "me", leaseLength: length)
  }

  /// A leader that took the lease with an acquisition started at `t0` and recovered at 100 ms.
  func active() -> Leadership {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    _ = leader.acquired(record(), now: ms(20))
    _ = leader.recovered(now: ms(100))
    return leader
  }

  @Test func defaultTimingIsAThirdAFifthAndASixthOfTheLease() {
    let c = configuration
    #expect(c.renewInterval == .milliseconds(500))
    #expect(c.safetyMargin == .milliseconds(300))
    #expect(c.watchInterval == .milliseconds(250))
    #expect(c.retryInterval == .milliseconds(150))
  }

  /// What a standby does with each lease it reads.
  @Test(arguments: [
    // nobody ever held it: take it
    (
      nil as Int?, "other", Leadership.Phase.acquiring,
      LeadershipEffect.acquire(length: .milliseconds(1500))
    ),
    // another's, expired: take it
    (0, "other", .acquiring, .acquire(length: .milliseconds(1500))),
    // another's, 1 s left: watch for at most the watch interval
    (1000, "other", .standby, .watchLease(timeout: .milliseconds(250))),
    // another's, 100 ms left: watch until it may have run out
    (100, "other", .standby, .watchLease(timeout: .milliseconds(100))),
    // this process's own lease from before a demotion, still running: wait for it to end
    (1000, "me", .standby, .watchLease(timeout: .milliseconds(250))),
  ])
  func standbyReadsTheLease(
    remaining: Int?, holder: String, phase: Leadership.Phase, effect: LeadershipEffect
  ) {
    var leader = Leadership(configuration: configuration)
    #expect(leader.start(now: t0) == [.readLease])
    let lease = remaining.map { record(holder, remaining: .milliseconds($0)) }
    #expect(leader.leaseRead(lease, now: t0) == [effect])
    #expect(leader.phase == phase)
    #expect(!leader.mayAcknowledge(now: t0))
  }

  @Test func aLeaseThatCannotBeReadIsReadAgainAfterTheRetryInterval() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    #expect(
      quiet(leader.leaseReadFailed("timeout", now: t0)) == [
        .watchLease(timeout: .milliseconds(150))
      ])
    #expect(leader.phase == .standby)
    var serving = active()
    #expect(serving.leaseReadFailed("timeout", now: t0) == [])
  }

  @Test func aWatchThatEndsReadsAgain() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(record("other"), now: t0)
    #expect(leader.watchEnded(now: ms(250)) == [.readLease])
  }

  @Test func aTakenLeaseIsRecoveredFromThenServed() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    #expect(quiet(leader.acquired(record(epoch: 9), now: ms(20))) == [.recover(fencingEpoch: 9)])
    #expect(leader.phase == .recovering)
    #expect(!leader.mayAcknowledge(now: ms(30)))
    #expect(quiet(leader.recovered(now: ms(100))) == [.serve(fencingEpoch: 9)])
    #expect(leader.phase == .active)
    #expect(leader.counters.takeovers == 1)
  }

  @Test func anAcquisitionAnotherWonGoesBackToWatching() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(record("other", remaining: .zero), now: t0)
    #expect(leader.acquired(nil, now: ms(5)) == [.readLease])
    #expect(leader.phase == .standby)
    var again = Leadership(configuration: configuration)
    _ = again.start(now: t0)
    _ = again.leaseRead(nil, now: t0)
    // An answer naming another holder is not this leader's lease either.
    #expect(again.acquired(record("other"), now: ms(5)) == [.readLease])
    #expect(again.fencingEpoch == nil)
  }

  @Test func aFailedAcquisitionRetriesAfterTheRetryInterval() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    #expect(
      quiet(leader.acquireFailed("connection refused", now: ms(5))) == [
        .watchLease(timeout: .milliseconds(150))
      ])
    #expect(leader.phase == .standby)
  }

  @Test func aRecoveryThatOutlastsTheLeaseDemotes() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    _ = leader.acquired(record(), now: ms(20))
    let effects = quiet(leader.recovered(now: ms(1250)))
    #expect(effects.first == .stopAcknowledging(reason: "the recovery outlasted the lease"))
    #expect(effects.last == .closeSockets)
    #expect(leader.phase == .demoting)
  }

  @Test func aFailedRecoveryGivesTheLeaseUpAndHoldsOff() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    _ = leader.acquired(record(epoch: 3), now: ms(20))
    #expect(
      quiet(leader.recoveryFailed("disk full", now: ms(50))) == [
        .release(fencingEpoch: 3), .closeSockets,
      ])
    #expect(leader.demoted(now: ms(60)) == [.readLease])
    // Holding off: a free lease is left to the others for one lease length.
    #expect(leader.leaseRead(nil, now: ms(70)) == [.watchLease(timeout: .milliseconds(250))])
    #expect(leader.leaseRead(nil, now: ms(1600)) == [.acquire(length: length)])
  }

  /// The acknowledgement rule: the lease answered to a request that started at 0 ms runs, for
  /// this leader, until 0 + 1500 ms; it acknowledges only with more than 300 ms of it left.
  @Test(arguments: [
    (100, true), (1000, true), (1199, true), (1200, false), (1500, false), (9000, false),
  ])
  func acknowledgesOnlyWithTheMarginLeftFromTheRequestsStart(at time: Int, may: Bool) {
    let leader = active()
    #expect(leader.mayAcknowledge(now: ms(time)) == may)
  }

  @Test func theLeaseCountsFromTheRequestNotTheAnswerAndNeverBeyondItsLength() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(nil, now: t0)
    // The answer came 400 ms after the request and claims more than a lease left.
    _ = leader.acquired(record(remaining: .milliseconds(4000)), now: ms(400))
    _ = leader.recovered(now: ms(450))
    #expect(leader.validUntil == ms(1500))
    #expect(!leader.mayAcknowledge(now: ms(1200)))
  }

  @Test func renewsEveryThirdOfTheLeaseFromTheLastRenewalsStart() {
    var leader = active()
    #expect(leader.tick(now: ms(499)) == [])
    #expect(leader.tick(now: ms(500)) == [.renew(fencingEpoch: 5, length: length)])
    // One renewal in flight at a time.
    #expect(leader.tick(now: ms(600)) == [])
    #expect(leader.renewed(record(), now: ms(700)) == [])
    #expect(leader.validUntil == ms(2000))
    #expect(leader.tick(now: ms(999)) == [])
    #expect(leader.tick(now: ms(1000)) == [.renew(fencingEpoch: 5, length: length)])
    #expect(leader.counters.renewals == 1)
  }

  @Test func aRenewalThatFindsTheLeaseLostDemotesAtOnce() {
    var leader = active()
    _ = leader.tick(now: ms(500))
    let effects = quiet(leader.renewed(nil, now: ms(520)))
    #expect(effects.first.map { if case .stopAcknowledging = $0 { true } else { false } } == true)
    #expect(effects.last == .closeSockets)
    #expect(!leader.mayAcknowledge(now: ms(520)))
    #expect(leader.demoted(now: ms(530)) == [.readLease])
    #expect(leader.phase == .standby)
    #expect(leader.fencingEpoch == nil)
  }

  @Test func aRenewalAnsweredWithAnotherFencingEpochIsALostLease() {
    var leader = active()
    _ = leader.tick(now: ms(500))
    _ = leader.renewed(record(epoch: 6), now: ms(520))
    #expect(leader.phase == .demoting)
  }

  @Test func failedRenewalsRetryThenDemoteBeforeTheLeaseRunsOut() {
    var leader = active()
    _ = leader.tick(now: ms(500))
    #expect(quiet(leader.renewFailed("timeout", now: ms(900))) == [])
    #expect(leader.tick(now: ms(1000)) == [])
    #expect(leader.tick(now: ms(1050)) == [.renew(fencingEpoch: 5, length: length)])
    #expect(quiet(leader.renewFailed("timeout", now: ms(1100))) == [])
    #expect(leader.mayAcknowledge(now: ms(1199)))
    // The margin is reached with no renewal: stop acknowledging before the lease ends.
    let effects = quiet(leader.tick(now: ms(1200)))
    #expect(
      effects == [
        .stopAcknowledging(reason: "could not renew the lease before it ran out"), .closeSockets,
      ])
    #expect(leader.counters.renewalFailures == 2)
    #expect(leader.counters.demotions == 1)
  }

  /// The paused leader: it wakes after its lease ended and its first look at the clock says
  /// it may not acknowledge, whatever it was doing.
  @Test func aLeaderPausedPastItsLeaseDoesNotAcknowledgeWhenItWakes() {
    var leader = active()
    #expect(!leader.mayAcknowledge(now: ms(5000)))
    // A renewal that was in flight across the pause and is answered late demotes too: its
    // answer is only as good as its start.
    _ = leader.tick(now: ms(500))
    #expect(leader.phase == .active)
    let effects = quiet(leader.tick(now: ms(5000)))
    #expect(effects.last == .closeSockets)
    #expect(leader.renewed(record(), now: ms(5001)) == [])
    #expect(!leader.mayAcknowledge(now: ms(5001)))
  }

  @Test func aCleanHandOverDrainsThenReleasesAndHoldsOff() {
    var leader = active()
    #expect(quiet(leader.stepDown(now: ms(200))) == [.drain])
    #expect(leader.phase == .steppingDown)
    // The batch in flight is still answered while it drains.
    #expect(leader.mayAcknowledge(now: ms(250)))
    #expect(
      leader.drained(now: ms(260)) == [
        .stopAcknowledging(reason: "handed over"), .release(fencingEpoch: 5), .closeSockets,
      ])
    #expect(!leader.mayAcknowledge(now: ms(261)))
    #expect(leader.counters.handOvers == 1)
    #expect(leader.demoted(now: ms(270)) == [.readLease])
    #expect(leader.leaseRead(nil, now: ms(280)) == [.watchLease(timeout: .milliseconds(250))])
  }

  @Test func onlyTheActiveLeaderStepsDown() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    #expect(leader.stepDown(now: t0) == [])
    #expect(leader.drained(now: t0) == [])
    #expect(leader.leaseHandedOver == nil)
  }

  /// What a `STEP-DOWN` is answered with: the leader's own lease while it serves and while it
  /// hands over (a second request begins nothing more), none once it left the lease.
  @Test func theLeaseHandedOverIsTheLeadersOwnUntilItDemotes() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    _ = leader.leaseRead(record("other", remaining: .milliseconds(1000)), now: t0)
    #expect(leader.leaseHandedOver == nil)  // standby, with another's lease read
    leader = active()
    #expect(leader.leaseHandedOver == record())
    _ = leader.stepDown(now: ms(200))
    #expect(leader.leaseHandedOver == record())
    #expect(leader.stepDown(now: ms(210)) == [])
    _ = leader.drained(now: ms(260))
    #expect(leader.leaseHandedOver == nil)
    _ = leader.demoted(now: ms(270))
    #expect(leader.leaseHandedOver == nil)
  }

  @Test func aStandbyRedirectsToTheHolderWhileItsLeaseRuns() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    #expect(leader.redirect(now: t0) == nil)
    _ = leader.leaseRead(record("other", remaining: .milliseconds(1000)), now: t0)
    #expect(leader.redirect(now: ms(999))?.control == "tcp://other:1")
    #expect(leader.redirect(now: ms(1000)) == nil)
    // The active leader redirects nobody, even to an old lease of its own.
    #expect(active().redirect(now: ms(200)) == nil)
  }

  @Test func inputsOutOfTurnDoNothing() {
    var leader = Leadership(configuration: configuration)
    _ = leader.start(now: t0)
    #expect(leader.acquired(record(), now: t0) == [])
    #expect(leader.recovered(now: t0) == [])
    #expect(leader.renewed(record(), now: t0) == [])
    #expect(leader.renewFailed("x", now: t0) == [])
    #expect(leader.tick(now: t0) == [])
    #expect(leader.demoted(now: t0) == [])
    var serving = active()
    #expect(serving.leaseRead(nil, now: ms(200)) == [])
    #expect(serving.watchEnded(now: ms(200)) == [])
    #expect(serving.acquired(record(), now: ms(200)) == [])
  }
}
