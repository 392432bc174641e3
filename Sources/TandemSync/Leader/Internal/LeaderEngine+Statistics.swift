extension LeaderEngine {
  /// The statistics `STATS` answers with: the counters, the followers heard from recently, and
  /// the ledger's most recently active clients.
  func statistics() -> LeaderStatistics {
    let now = ContinuousClock.now
    core.forgetFollowers(now: now)
    let epoch = history.epoch
    let entries = published.ledger.entries
    let clients = entries.sorted { ($0.value.lastActive, $1.key) > ($1.value.lastActive, $0.key) }
      .prefix(LeaderStatistics.clientsListed)
      .map { client, entry in
        LeaderStatistics.Client(
          client: client, lastNumber: entry.lastNumber, lastSequence: entry.lastSequence)
      }
    return LeaderStatistics(
      epoch: epoch.description, sequence: published.sequence, backlogCount: core.backlog.count,
      backlogOldest: core.backlog.oldestSequence ?? 0, counters: counters.dictionary,
      followers: core.followers.records.sorted { $0.key < $1.key }.map { client, record in
        let elapsed = now - record.lastSeen
        return LeaderStatistics.Follower(
          client: client,
          lastSeenMillisecondsAgo: Int(elapsed.milliseconds),
          lag: published.sequence > record.sequence ? published.sequence - record.sequence : 0,
          catchUps: record.catchUps, missed: record.missed)
      },
      clients: Array(clients), clientCount: entries.count, degraded: journalRefusal?.summary,
      security: LeaderStatistics.Security(
        mode: keyRing == nil ? "plain" : "curve", keys: keyRing?.count ?? 0,
        handshakeFailures: handshakeFailures.byReason))
  }
}
