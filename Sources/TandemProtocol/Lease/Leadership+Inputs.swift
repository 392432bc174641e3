/// The inputs of ``Leadership``: what the arbiter answered, what the shell finished, the timer.
extension Leadership {
  /// The shell starts the leader in standby: read the lease.
  package mutating func start(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    phase = .standby
    return [.readLease]
  }

  /// The lease as the arbiter holds it (nil: never taken). A standby takes a lease that is
  /// free or ran out (unless it is holding off after a hand-over), else watches it until it
  /// may have run out, at most ``Configuration/watchInterval`` at a time.
  package mutating func leaseRead(
    _ record: LeaseRecord?, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard phase == .standby else { return [] }
    lease = record
    leaseReadAt = now
    if let holdOffUntil, now < holdOffUntil {
      return [.watchLease(timeout: min(holdOffUntil - now, configuration.watchInterval))]
    }
    guard let record, !record.isExpired else {
      phase = .acquiring
      requestStartedAt = now
      return [.acquire(length: configuration.leaseLength)]
    }
    // A notification may come before the end; without one, read again when it may be over.
    let wait = min(max(record.remaining, .milliseconds(1)), configuration.watchInterval)
    return [.watchLease(timeout: wait)]
  }

  /// The lease could not be read (the arbiter could not be reached): watch, then read again.
  package mutating func leaseReadFailed(
    _ error: String, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard phase == .standby else { return [] }
    return [
      .log(.error, "could not read the lease (\(error)); trying again"),
      .watchLease(timeout: configuration.retryInterval),
    ]
  }

  /// The watch ended (a change, or its timeout): read the lease again.
  package mutating func watchEnded(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    phase == .standby ? [.readLease] : []
  }

  /// The arbiter answered the acquisition: the lease (this leader's now, with a new fencing
  /// epoch), or nil when another leader took it first. A taken lease is recovered from before
  /// it is served.
  package mutating func acquired(
    _ record: LeaseRecord?, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard phase == .acquiring, let start = requestStartedAt else { return [] }
    requestStartedAt = nil
    guard let record, record.holder == configuration.leaderID else {
      phase = .standby
      return [.readLease]
    }
    phase = .recovering
    lease = record
    leaseReadAt = now
    fencingEpoch = record.fencingEpoch
    validUntil = end(of: record, requestedAt: start)
    nextRenewal = start + configuration.renewInterval
    return [
      .log(.info, "took the lease with fencing epoch \(record.fencingEpoch); recovering"),
      .recover(fencingEpoch: record.fencingEpoch),
    ]
  }

  /// The acquisition failed (the arbiter could not be reached): watch, then try again.
  package mutating func acquireFailed(
    _ error: String, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard phase == .acquiring else { return [] }
    requestStartedAt = nil
    phase = .standby
    return [
      .log(.error, "could not take the lease (\(error)); trying again"),
      .watchLease(timeout: configuration.retryInterval),
    ]
  }

  /// The state and the ledger are recovered from the shared journal: serve, unless the lease
  /// ran too short meanwhile.
  package mutating func recovered(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard phase == .recovering, let fencingEpoch else { return [] }
    guard let validUntil, now + configuration.safetyMargin < validUntil else {
      return demote(because: "the recovery outlasted the lease")
    }
    phase = .active
    counters.takeovers += 1
    return [
      .log(.info, "serving as the active leader (fencing epoch \(fencingEpoch))"),
      .serve(fencingEpoch: fencingEpoch),
    ]
  }

  /// The recovery failed: give the lease up and leave it to the other leaders for a while.
  package mutating func recoveryFailed(
    _ error: String, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard phase == .recovering, let fencingEpoch else { return [] }
    holdOffUntil = now + configuration.holdOff
    phase = .demoting
    validUntil = nil
    return [
      .log(.error, "could not recover from the shared journal (\(error)); giving the lease up"),
      .release(fencingEpoch: fencingEpoch), .closeSockets,
    ]
  }

  /// The timer: demote when the margin is reached, else renew when due.
  package mutating func tick(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard holdsLease, let validUntil, let fencingEpoch else { return [] }
    if now + configuration.safetyMargin >= validUntil {
      return demote(because: "could not renew the lease before it ran out")
    }
    guard requestStartedAt == nil, let nextRenewal, now >= nextRenewal else { return [] }
    requestStartedAt = now
    return [.renew(fencingEpoch: fencingEpoch, length: configuration.leaseLength)]
  }

  /// The arbiter answered the renewal: the lease extended, or nil when it was lost (it ran
  /// out, or another leader holds it now): demote at once.
  package mutating func renewed(
    _ record: LeaseRecord?, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard holdsLease, let start = requestStartedAt else { return [] }
    requestStartedAt = nil
    guard let record, record.holder == configuration.leaderID,
      record.fencingEpoch == fencingEpoch
    else {
      return demote(because: "the lease was lost (it ran out or another leader took it)")
    }
    counters.renewals += 1
    lease = record
    leaseReadAt = now
    validUntil = max(validUntil ?? start, end(of: record, requestedAt: start))
    nextRenewal = start + configuration.renewInterval
    return []
  }

  /// The renewal failed (the arbiter could not be reached): try again soon; the tick demotes
  /// when the margin is reached first.
  package mutating func renewFailed(
    _ error: String, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard holdsLease, requestStartedAt != nil else { return [] }
    requestStartedAt = nil
    counters.renewalFailures += 1
    nextRenewal = now + configuration.retryInterval
    if let validUntil, now + configuration.safetyMargin >= validUntil {
      return demote(because: "could not renew the lease (\(error)) before it ran out")
    }
    return [.log(.error, "could not renew the lease (\(error)); trying again")]
  }

  /// The journal refused an append because the fencing epoch is not the current one: another
  /// leader took the lease. Demote at once; the batch was not committed, and its actions go
  /// unanswered (their followers send them again to the new leader).
  package mutating func fenced(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard holdsLease else { return [] }
    return demote(because: "the journal refused an append: another leader holds the lease")
  }

  /// A commit got no answer (the connection to the journal failed or timed out): it may still
  /// commit, so the ledger in memory can no longer be trusted. Demote, and give the lease up so
  /// that the next holder takes it with a new fencing epoch, which fences the stray
  /// transaction off, and recovers the ledger from the journal. Its actions go unanswered.
  package mutating func commitOutcomeUnknown(
    _ error: String, now: ContinuousClock.Instant
  )
    -> [LeadershipEffect]
  {
    guard holdsLease, let fencingEpoch else { return [] }
    var effects = demote(because: "a commit's outcome is unknown (\(error))")
    effects.insert(.release(fencingEpoch: fencingEpoch), at: effects.count - 1)
    return effects
  }

  /// An operator asked the active leader to hand over: commit what is in flight first.
  /// Returns nothing when the leader does not serve.
  package mutating func stepDown(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard phase == .active else { return [] }
    phase = .steppingDown
    return [.log(.info, "handing over: committing the batch in flight"), .drain]
  }

  /// The batch in flight is committed and answered: stop acknowledging, give the lease up so
  /// that a standby takes it at once, and close the sockets.
  package mutating func drained(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard phase == .steppingDown, let fencingEpoch else { return [] }
    phase = .demoting
    counters.handOvers += 1
    validUntil = nil
    holdOffUntil = now + configuration.holdOff
    return [
      .stopAcknowledging(reason: "handed over"),
      .release(fencingEpoch: fencingEpoch), .closeSockets,
    ]
  }

  /// The sockets are closed: back to standby, watching the lease.
  package mutating func demoted(now: ContinuousClock.Instant) -> [LeadershipEffect] {
    guard phase == .demoting else { return [] }
    phase = .standby
    fencingEpoch = nil
    nextRenewal = nil
    requestStartedAt = nil
    return [.readLease]
  }
}
