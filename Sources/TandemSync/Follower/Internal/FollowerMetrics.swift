/// What a scrape reads from a follower's loop thread at once.
struct FollowerMetricsSnapshot: Sendable {
  var clientID: String
  var statistics: FollowerStatistics
  /// Sequences the replica is behind the leader's last heartbeat.
  var lag: UInt64
  /// Receipts not settled yet: unanswered, or acknowledged and waiting for the replica.
  var receiptsWaiting: Int
  var connected: Bool
  var sendToApplied: MetricHistogram
}

extension FollowerEngine {
  /// The counters and position for a scrape; runs on the loop thread.
  func metricsSnapshot() -> FollowerMetricsSnapshot {
    let statistics = statistics()
    let (heard, acknowledged) = shared.withLock {
      ($0.core.sync.leaderSequenceHeard, $0.core.acknowledgedAwaitingVisibility)
    }
    var connected = false
    if case .connected = connection { connected = true }
    return FollowerMetricsSnapshot(
      clientID: configuration.clientID, statistics: statistics,
      lag: heard > statistics.sequence ? heard - statistics.sequence : 0,
      receiptsWaiting: statistics.unanswered + acknowledged, connected: connected,
      sendToApplied: sendToApplied)
  }
}

/// A follower's metrics as Prometheus families (`tandem_follower_...`), labelled with its
/// client id.
enum FollowerMetrics {
  /// The collector a follower's registry asks: a snapshot taken on the loop thread.
  static func collector<Model>(core: FollowerCore<Model>) -> MetricsRegistry.Collector {
    let (loop, engine) = (core.loop, core.engine)
    return {
      guard let snapshot = try? await loop.submit({ _ in engine.value.metricsSnapshot() }) else {
        return []
      }
      return families(snapshot)
    }
  }

  /// The families of `snapshot`.
  static func families(_ snapshot: FollowerMetricsSnapshot) -> [MetricFamily] {
    let client = [("client", snapshot.clientID)]
    let statistics = snapshot.statistics
    func gauge(_ name: String, _ help: String, _ value: Double) -> MetricFamily {
      .values("tandem_follower_\(name)", help: help, kind: .gauge, [(client, value)])
    }
    func counter(_ name: String, _ help: String, _ value: Int) -> MetricFamily {
      .values(
        "tandem_follower_\(name)_total", help: help, kind: .counter, [(client, Double(value))])
    }
    return [
      .values(
        "tandem_follower_info", help: "The replica's epoch (always 1).", kind: .gauge,
        [(client + [("epoch", statistics.epoch)], 1)]),
      gauge("sequence", "The sequence the replica shows.", Double(statistics.sequence)),
      gauge(
        "lag_sequences", "Sequences the replica is behind the leader's last heartbeat.",
        Double(snapshot.lag)),
      gauge("connected", "1 while in step with the leader, else 0.", snapshot.connected ? 1 : 0),
      gauge(
        "receipts_waiting", "Sent actions whose receipts have not settled.",
        Double(snapshot.receiptsWaiting)),
      counter("deltas_applied", "Deltas applied to the replica.", statistics.deltasApplied),
      counter(
        "gaps_repaired", "Gaps in the deltas repaired by a catch-up.", statistics.gapsRepaired),
      counter("resyncs", "Full resyncs from a snapshot.", statistics.resyncs),
      counter(
        "hash_mismatches", "Heartbeats whose state hash differed from the replica's.",
        statistics.hashMismatches),
      counter("reconnects", "Reconnects to the leader.", statistics.reconnects),
      counter("resends", "Times unanswered actions were sent again.", statistics.resends),
      MetricFamily(
        name: "tandem_follower_send_to_applied_seconds",
        help: "Time from send to the replica showing the action.", kind: .histogram,
        samples: snapshot.sendToApplied.samples(labels: client.map { (name: $0.0, value: $0.1) })),
    ]
  }
}
