import TandemProtocol
import ZeroMQ

/// The leader's latency histograms: observed on its loop thread with atomics, read by scrapes.
final class LeaderHistograms: Sendable {
  /// How long each journal transaction (a batch: group commit) took to commit.
  let journalCommit = MetricHistogram()
  /// How long the oldest action of each batch waited from its `DISPATCH` to its publication.
  let dispatchToPublish = MetricHistogram()

  /// Observes the wait of the batch just published, if an action started one, and clears it.
  func observePublished(since oldest: inout ContinuousClock.Instant?) {
    guard let start = oldest else { return }
    dispatchToPublish.observe(.now - start)
    oldest = nil
  }
}

/// What a scrape reads from the leader's loop thread at once.
struct LeaderMetricsSnapshot: Sendable {
  var statistics: LeaderStatistics
  var counters: LeaderCounters
  /// Reply bytes queued and not yet sent, by follower.
  var queuedBytes: [String: Int]
  var histograms: LeaderHistograms
  var hasJournal: Bool
  /// The updates socket's high-water mark, in messages per follower.
  var updatesHighWaterMark: Int32
}

extension LeaderEngine {
  /// The counters, followers and histograms for a scrape; runs on the loop thread.
  func metricsSnapshot() -> LeaderMetricsSnapshot {
    let statistics = statistics()
    var queued: [String: Int] = [:]
    for follower in statistics.followers {
      queued[follower.client] =
        core.followers.owners[follower.client].map { queuedReplies.queued(for: $0) } ?? 0
    }
    return LeaderMetricsSnapshot(
      statistics: statistics, counters: counters, queuedBytes: queued, histograms: histograms,
      hasJournal: journal != nil, updatesHighWaterMark: core.configuration.updates.highWaterMark)
  }
}

/// The leader's metrics as Prometheus families (`tandem_leader_...`).
enum LeaderMetrics {
  /// A follower heard from within this long counts as connected (a follower pings every
  /// quarter of its silence limit, 500 ms by default).
  static let connectedWithinMilliseconds = 1500

  /// The collector a leader's registry asks: a snapshot taken on the loop thread, so nothing
  /// on the hot path is locked or copied for it.
  static func collector<State>(
    loop: IOLoop, engine: LoopBound<LeaderEngine<State>>
  ) -> MetricsRegistry.Collector {
    {
      guard let snapshot = try? await loop.submit({ _ in engine.value.metricsSnapshot() }) else {
        return []
      }
      return families(snapshot)
    }
  }

  /// The families of `snapshot`.
  static func families(_ snapshot: LeaderMetricsSnapshot) -> [MetricFamily] {
    let statistics = snapshot.statistics
    let counters = snapshot.counters
    let connected = statistics.followers.filter {
      $0.lastSeenMillisecondsAgo <= connectedWithinMilliseconds
    }
    func counter(_ name: String, _ help: String, _ value: Int) -> MetricFamily {
      .value("tandem_leader_\(name)_total", help: help, kind: .counter, Double(value))
    }
    func byReason(_ name: String, _ help: String, _ values: [String: Int]) -> MetricFamily {
      .values(
        "tandem_leader_\(name)_total", help: help, kind: .counter,
        values.sorted { $0.key < $1.key }.map { ([("reason", $0.key)], Double($0.value)) })
    }
    var families: [MetricFamily] = [
      .values(
        "tandem_leader_info", help: "The leader's epoch and protocol (always 1).", kind: .gauge,
        [([("epoch", statistics.epoch), ("protocol", ControlRequest.version)], 1)]),
      .value(
        "tandem_leader_sequence", help: "The sequence of the newest published state.",
        kind: .gauge, Double(statistics.sequence)),
      .value(
        "tandem_leader_backlog_deltas", help: "Deltas kept in memory for catch-up.",
        kind: .gauge, Double(statistics.backlogCount)),
      counter("actions_applied", "Followers' actions applied.", counters.actionsApplied),
      byReason(
        "actions_rejected", "Followers' actions rejected, by rejection code.",
        counters.rejectedByReason),
      counter(
        "duplicate_actions", "Actions sent again and answered as duplicates.",
        counters.duplicates),
      counter("deltas_published", "Deltas published to followers.", counters.deltasPublished),
      counter(
        "published_bytes", "Bytes of delta messages published to followers.",
        counters.bytesPublished),
      counter("snapshots_served", "Snapshots sent to followers.", counters.snapshotsServed),
      counter(
        "catch_ups_served", "Catch-ups of deltas sent to followers.", counters.catchUpsServed),
      counter(
        "malformed_requests", "Control requests refused as malformed.", counters.malformedRequests),
      byReason(
        "messages_dropped", "Messages not sent (peer gone or queue full), by reason.",
        counters.droppedByReason),
      byReason(
        "handshake_failures", "HELLOs refused, by reason (version, fingerprint, schema).",
        counters.handshakeFailures),
      byReason(
        "connection_handshake_failures",
        "ZMTP and CURVE handshakes that failed, by reason (unknown-key, mechanism-mismatch, "
          + "cryptographic, no-detail, ...).",
        statistics.security?.handshakeFailures ?? [:]),
      counter(
        "unauthorized_requests", "Requests and dispatches a key's role did not allow.",
        counters.unauthorized),
      counter(
        "deltas_unpublished",
        "Deltas too large for one update message, left to followers' catch-ups.",
        counters.deltasUnpublished),
      .value(
        "tandem_leader_updates_high_water_mark",
        help: "Update messages queued per follower at most (from the bytes bound).", kind: .gauge,
        Double(snapshot.updatesHighWaterMark)),
      .values(
        "tandem_leader_follower_catch_ups_total",
        help: "CATCHUP requests of each follower: gaps it saw in the updates.", kind: .counter,
        statistics.followers.map { ([("client", $0.client)], Double($0.catchUps ?? 0)) }),
      .values(
        "tandem_leader_follower_missed_sequences_total",
        help: "Sequences each follower lacked at its catch-ups: the updates it missed.",
        kind: .counter,
        statistics.followers.map { ([("client", $0.client)], Double($0.missed ?? 0)) }),
      .value(
        "tandem_leader_followers", help: "Followers heard from within the last minute.",
        kind: .gauge, Double(statistics.followers.count)),
      .value(
        "tandem_leader_followers_connected",
        help: "Followers heard from within the last 1.5 seconds.", kind: .gauge,
        Double(connected.count)),
      .values(
        "tandem_leader_follower_lag_sequences",
        help: "How many sequences each connected follower is behind, as of its last ping.",
        kind: .gauge, connected.map { ([("client", $0.client)], Double($0.lag)) }),
      .values(
        "tandem_leader_follower_queued_bytes",
        help: "Reply bytes queued for each connected follower and not yet sent.", kind: .gauge,
        connected.map { ([("client", $0.client)], Double(snapshot.queuedBytes[$0.client] ?? 0)) }),
      MetricFamily(
        name: "tandem_leader_dispatch_to_publish_seconds",
        help: "Time from the DISPATCH of a batch's oldest action to the batch's publication.",
        kind: .histogram, samples: snapshot.histograms.dispatchToPublish.samples()),
    ]
    if snapshot.hasJournal {
      families += [
        counter("journal_commits", "Journal transactions committed.", counters.commits),
        counter(
          "journal_commit_failures", "Journal transactions that failed (batch undone).",
          counters.commitFailures),
        MetricFamily(
          name: "tandem_leader_journal_commit_seconds",
          help: "Time to commit one journal transaction (a batch of actions).",
          kind: .histogram, samples: snapshot.histograms.journalCommit.samples()),
      ]
    }
    return families
  }
}

extension DroppedMessages.Reason {
  /// The `reason` label of the drop metrics.
  var label: String {
    switch self {
    case .unsent: "unsent"
    case .replyBytesLimit: "reply_bytes_limit"
    }
  }
}
