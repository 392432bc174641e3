/// The rules of standby leaders without I/O: when a leader takes the lease, serves, renews,
/// acknowledges, demotes itself and hands over, as a value that takes inputs (lease reads and
/// answers, recovery and drain outcomes, timer ticks) and returns ``LeadershipEffect``s.
///
/// The arbiter (the shared journal's database) holds one lease row with a fencing epoch and an
/// expiry by its own clock; every append checks the fencing epoch in its transaction, so a
/// deposed leader cannot commit. On top of that fence, this machine keeps a leader from
/// *acknowledging* once it cannot be sure it still holds the lease:
///
/// - a lease answered to a request (acquire or renew) that started at `t` on this process's
///   monotonic clock is taken to run until `t + min(remaining, length)`: the arbiter set the
///   expiry no earlier than it received the request, so the true expiry is never earlier
///   (``validUntil``);
/// - the leader acknowledges only while ``Configuration/safetyMargin`` is left before that
///   (``mayAcknowledge(now:)``), which covers the two clocks' drift over one lease;
/// - it renews every ``Configuration/renewInterval`` (a third of the lease), measured from the
///   previous renewal's start, and retries a failed renewal after
///   ``Configuration/retryInterval``; when the margin is reached without a renewal it demotes
///   itself: stops acknowledging, closes its sockets, and goes back to standby.
///
/// ```text
/// standby ──lease free──▶ acquiring ──taken──▶ recovering ──recovered──▶ active
///    ▲                        │                    │                     │   │
///    │                   not taken                 └──lease running out──┤   step down
///    │                        ▼                                          ▼   ▼
///    └─────────────────── standby ◀──────────── demoting ◀─drained── stepping down
/// ```
package struct Leadership: Sendable {
  /// The lease's timing and this leader's identity.
  package struct Configuration: Sendable, Equatable {
    /// This process's leader id in the lease row (unique per process: `host:pid:random`).
    package var leaderID: String
    /// How long an acquisition or a renewal holds the lease, by the arbiter's clock.
    package var leaseLength: Duration
    /// How long before the lease's conservative end the leader stops acknowledging.
    package var safetyMargin: Duration
    /// How often the active leader renews, from the previous renewal's start.
    package var renewInterval: Duration
    /// The longest a standby waits between two reads of the lease (a notification wakes it
    /// earlier).
    package var watchInterval: Duration
    /// How soon a failed renewal or acquisition is tried again.
    package var retryInterval: Duration
    /// How long a leader that handed over (or failed to recover) leaves the lease to the
    /// others before it tries to take it again.
    package var holdOff: Duration

    /// The timing for a lease of `leaseLength`: renewals every third of it, a margin of a
    /// fifth, reads at least every sixth, retries every tenth, a hold-off of one lease.
    package init(leaderID: String, leaseLength: Duration) {
      self.leaderID = leaderID
      self.leaseLength = leaseLength
      safetyMargin = leaseLength / 5
      renewInterval = leaseLength / 3
      watchInterval = leaseLength / 6
      retryInterval = leaseLength / 10
      holdOff = leaseLength
    }
  }

  /// Where the leader stands.
  package enum Phase: Sendable, Equatable {
    /// Watching the lease held by another (or by nobody yet); `HELLO` is answered with
    /// `REDIRECT`.
    case standby
    /// An acquisition is in flight.
    case acquiring
    /// Holding the lease, recovering state and ledger from the shared journal; not serving.
    case recovering
    /// Holding the lease and serving.
    case active
    /// Handing over: committing the batch in flight before giving the lease up.
    case steppingDown
    /// Not acknowledging any more; closing the sockets before going back to standby.
    case demoting
  }

  /// Counts of what happened, for statistics.
  package struct Counters: Sendable, Equatable {
    /// Times this leader took the lease and began serving.
    package var takeovers = 0
    package var renewals = 0
    package var renewalFailures = 0
    /// Times it stopped serving because it could not be sure of the lease.
    package var demotions = 0
    /// Times it handed over cleanly.
    package var handOvers = 0
  }

  package let configuration: Configuration
  package internal(set) var phase = Phase.standby
  package internal(set) var counters = Counters()
  /// The lease as last read (standby) or answered (holding).
  package internal(set) var lease: LeaseRecord?
  /// When ``lease`` was read, on this process's clock.
  package internal(set) var leaseReadAt: ContinuousClock.Instant?
  /// The fencing epoch this leader holds, from acquisition to the end of demotion.
  package internal(set) var fencingEpoch: UInt64?
  /// The conservative end of the lease held, on this process's clock.
  package internal(set) var validUntil: ContinuousClock.Instant?
  /// When the acquisition or renewal in flight started, if one is.
  package internal(set) var requestStartedAt: ContinuousClock.Instant?
  /// When the next renewal is due.
  package internal(set) var nextRenewal: ContinuousClock.Instant?
  /// Until when the leader leaves the lease to others (after a hand-over).
  package internal(set) var holdOffUntil: ContinuousClock.Instant?

  /// A leader in standby that has not read the lease yet.
  package init(configuration: Configuration) {
    precondition(
      configuration.safetyMargin + configuration.renewInterval < configuration.leaseLength,
      "the safety margin plus the renewal interval must be shorter than the lease")
    self.configuration = configuration
  }

  /// Whether the leader may send an acknowledgement (`ACK`, `WELCOME`, a delta) at `now`:
  /// while it serves or drains, with more than the safety margin left of its lease as measured
  /// from the start of the last request the arbiter answered.
  package func mayAcknowledge(now: ContinuousClock.Instant) -> Bool {
    guard phase == .active || phase == .steppingDown, let validUntil else { return false }
    return now + configuration.safetyMargin < validUntil
  }

  /// Whether the leader holds the lease (acquired, not yet demoted).
  package var holdsLease: Bool {
    phase == .recovering || phase == .active || phase == .steppingDown
  }

  /// The lease an operator's `STEP-DOWN` is answered with: this leader's own while it serves
  /// or hands it over already (``stepDown(now:)`` began it); nil when it does not serve.
  package var leaseHandedOver: LeaseRecord? {
    phase == .active || phase == .steppingDown ? lease : nil
  }

  /// How much of the held lease is left at `now`, conservatively; nil when none is held.
  package func timeLeft(now: ContinuousClock.Instant) -> Duration? {
    guard holdsLease, let validUntil else { return nil }
    return validUntil - now
  }

  /// The other leader a follower's `HELLO` is sent to while this one does not serve: the
  /// holder of the last lease read, if it was another leader's and has not run out since (by
  /// this process's clock, from the read). Nil when no leader is known to serve.
  package func redirect(now: ContinuousClock.Instant) -> LeaseRecord? {
    guard phase != .active, let lease, let leaseReadAt,
      lease.holder != configuration.leaderID, lease.remaining - (now - leaseReadAt) > .zero
    else { return nil }
    return lease
  }

  /// The conservative end of a lease answered to a request that started at `start`.
  func end(
    of record: LeaseRecord, requestedAt start: ContinuousClock.Instant
  )
    -> ContinuousClock.Instant
  {
    start + min(record.remaining, configuration.leaseLength)
  }

  /// Stops acknowledging and closes the sockets: the lease can no longer be trusted (or was
  /// taken), for `reason`.
  mutating func demote(because reason: String) -> [LeadershipEffect] {
    phase = .demoting
    counters.demotions += 1
    validUntil = nil
    return [
      .stopAcknowledging(reason: reason),
      .log(.error, "stepping back to standby, acknowledging nothing more: \(reason)"),
      .closeSockets,
    ]
  }
}
