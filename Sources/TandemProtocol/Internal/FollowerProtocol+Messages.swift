/// The follower's protocol's inputs from the leader (replies, updates) and from the replica
/// (what applied, what did not).
extension FollowerProtocol {
  /// A reply on the control socket.
  package mutating func received(
    _ reply: ControlReply, now: ContinuousClock.Instant
  )
    -> [FollowerEffect]
  {
    guard !isStopped else { return [] }
    switch reply {
    case .welcome(
      let epoch, let sequence, let lastNumber, let forgottenThrough, _, let updates, _, let limits,
      let leaderSchema
    ):
      outbox.leaderLimits = limits
      let joining = sync.phase == .greeting
      // The generation this process said HELLO with; the WELCOME hands another when the
      // leader's ledger did not know it.
      let saidHelloWith = sync.generation
      var effects = translate(sync.received(reply, now: now), now: now)
      if joining {
        leaders.joined()
        effects += schemaNotes(leader: leaderSchema)
      }
      if joining || outbox.realigningSince != nil {
        // A realignment's WELCOME may come from a leader restarted behind the open connection,
        // on another updates endpoint: read the one it names.
        if subscribedTo != updates {
          subscribedTo = updates
          effects.append(.subscribe(updates))
        }
        let renewed = saidHelloWith != 0 && sync.generation != saidHelloWith
        let unknown = outbox.welcome(
          lastNumber: lastNumber, forgottenThrough: forgottenThrough, epoch: epoch,
          sequence: sequence, renewed: renewed)
        if !unknown.isEmpty {
          let message =
            renewed
            ? "another process used client id \(client) while this one was away, so the "
              + "leader cannot tell \(unknown.count) unanswered actions from its own; they "
              + "may have been applied, so they are not sent again"
            : "the leader forgot this client with \(unknown.count) actions unanswered; "
              + "they may have been applied, so they are not sent again"
          effects.append(.log(.error, message, peerControlled: false))
        }
        effects += unknown.map { .settle($0.receipt, .failure(.outcomeUnknown)) }
        effects += flush(now: now)
      }
      return settled(effects)
    case .ack(_, let number, let epoch, let sequence):
      guard let entry = outbox.answered(number) else { return [] }
      awaitingVisibility.append((epoch, sequence, entry.receipt))
      return settleVisible()
    case .reject(_, let number, let rejection):
      if rejection.code == .outOfOrder {
        return realign(
          because: "action \(number) is out of order: \(rejection.message)", now: now)
      }
      guard let entry = outbox.answered(number) else { return [] }
      return [.settle(entry.receipt, .failure(.rejected(rejection)))]
    case .redirect(let control, _, let fencingEpoch, let holder):
      return redirected(to: control, holder: holder, fencingEpoch: fencingEpoch)
    case .error(.superseded, let message):
      // Another connection said HELLO for this client id since this one did, and this
      // follower's own earlier connections are closed: another process uses the id. Sending
      // on would mix two numberings; stop, and say why.
      let cause = FollowerStopCause.refused(code: .superseded, message: message)
      return [
        .log(
          .error, "another process took over client id \(client): \(message)",
          peerControlled: true)
      ] + close(because: cause) + [.stop(cause)]
    case .error(let code, let message) where code.isFinal:
      let cause = FollowerStopCause.refused(code: code, message: message)
      return [
        .log(
          .error, "the leader refused this follower (\(code)): \(message)", peerControlled: true)
      ] + close(because: cause) + [.stop(cause)]
    default:
      return settled(translate(sync.received(reply, now: now), now: now))
    }
  }

  /// A message on the updates socket.
  package mutating func received(
    _ update: UpdateMessage, now: ContinuousClock.Instant
  )
    -> [FollowerEffect]
  {
    guard !isStopped else { return [] }
    return settled(translate(sync.received(update, now: now), now: now))
  }

  /// The replica applied `deltas`, the next of the deltas it was to apply (in order), and
  /// `dropped` more did not (the first of them failed; the replica holds the ones before).
  /// Each of this process's own actions they show settles its receipt; a failure resyncs.
  package mutating func replicaApplied(
    _ deltas: ArraySlice<Delta>, dropped: Int = 0, now: ContinuousClock.Instant
  ) -> [FollowerEffect] {
    unreportedApplies -= deltas.count + dropped
    var effects: [FollowerEffect] = []
    if let epoch = sync.epoch {
      // A delta of this follower's own action answers it as its ACK would, and the replica
      // already shows it: the receipt settles now rather than when the ACK arrives.
      effects = outbox.applied(
        in: deltas, epoch: epoch, client: client, generation: sync.generation
      ).map { .settle($0.receipt, .success($0.sequence)) }
    }
    if dropped > 0 { effects += replicaFellBehind(now: now) }
    return settled(effects)
  }

  /// The replica now holds the snapshot of `epoch` at `sequence`: receipts acknowledged in
  /// another history fail, as it is gone, and the numbering follows the replica into it.
  package mutating func replicaReplaced(
    epoch: Epoch, sequence: UInt64, now: ContinuousClock.Instant
  ) -> [FollowerEffect] {
    var effects: [FollowerEffect] = []
    awaitingVisibility.removeAll { waiting in
      guard waiting.epoch != epoch else { return false }
      effects.append(.settle(waiting.receipt, .failure(.historyLost)))
      return true
    }
    outbox.followReplica(into: epoch, at: sequence)
    // The snapshot may hold actions sent quietly whose deltas this follower never saw.
    if outbox.rewindIfSentQuietly() { effects += flush(now: now) }
    return effects
  }

  /// The snapshot did not decode: the replica stays as it was, behind; resync.
  package mutating func snapshotFailed(now: ContinuousClock.Instant) -> [FollowerEffect] {
    replicaFellBehind(now: now)
  }

  /// The replica's state hash differs from the leader's at the same sequence: resync.
  package mutating func replicaDiverged(now: ContinuousClock.Instant) -> [FollowerEffect] {
    // The deltas before the check were applied; any after it are void with the check's list.
    unreportedApplies = 0
    return [
      .log(
        .error, "state hash differs from the leader's at \(sync.sequence); resyncing",
        peerControlled: true)
    ] + translate(sync.diverged(), now: now)
  }

  private mutating func replicaFellBehind(now: ContinuousClock.Instant) -> [FollowerEffect] {
    // The deltas after the failed one were counted as effects; none of them will be reported.
    unreportedApplies = 0
    return translate(sync.failedToApply(), now: now)
  }
}

extension FollowerProtocol {
  /// A standby answered `REDIRECT`: join the lease holder it names (or, with none named or too
  /// many redirects in a row, the next endpoint given). Everything unanswered goes again to
  /// the leader joined, whose ledger (recovered from the shared journal) answers what was
  /// applied as a duplicate.
  mutating func redirected(
    to control: String, holder: String, fencingEpoch: UInt64
  )
    -> [FollowerEffect]
  {
    let previous = leaders.current
    let followed = leaders.redirected(to: control)
    let message =
      followed
      ? "\(previous) is a standby leader: the lease holder \(holder) (fencing epoch "
        + "\(fencingEpoch)) serves at \(control)"
      : control.isEmpty
        ? "\(previous) is a standby leader and knows no leader serving; trying "
          + "\(leaders.current)\(leaders.current == previous ? " again" : "")"
        : "\(previous) redirects to \(control) after \(LeaderEndpoints.maximumRedirects) "
          + "redirects without a join; trying \(leaders.current)"
    return [
      .log(.info, message, peerControlled: true),
      .reconnect(reason: "redirected by a standby leader to \(leaders.current)"),
    ]
  }

  /// What the follower says about the leader's schema in a `WELCOME`: which of its own action
  /// tags the leader does not know (it refuses them with `unknown-tag`).
  func schemaNotes(leader frame: Frame?) -> [FollowerEffect] {
    guard let frame, let schema, let leader = try? ApplicationSchema(bytes: frame) else {
      return []
    }
    let unknown = SchemaCompatibility.follower(schema, leader: leader).tagsUnknownToLeader
    guard !unknown.isEmpty else { return [] }
    return [
      .log(
        .info,
        "the leader's schema lacks this follower's actions \(unknown.joined(separator: ", ")): "
          + "it refuses them with unknown-tag until it runs a build that has them",
        peerControlled: true)
    ]
  }
}
