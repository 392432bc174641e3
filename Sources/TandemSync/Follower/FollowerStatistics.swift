/// A follower's position and counters.
public struct FollowerStatistics: Sendable, Equatable, Codable {
  /// The epoch of the replica's history (16 hex digits; empty before the first snapshot).
  public var epoch: String
  /// The sequence the replica shows.
  public var sequence: UInt64
  public var deltasApplied: Int
  public var gapsRepaired: Int
  public var resyncs: Int
  public var hashMismatches: Int
  public var reconnects: Int
  public var resends: Int
  public var applyFailures: Int
  public var malformedMessages: Int
  /// Actions sent and not yet answered.
  public var unanswered: Int
}

extension FollowerEngine {
  func statistics() -> FollowerStatistics {
    FollowerStatistics(
      epoch: sync.epoch?.description ?? "", sequence: sync.sequence,
      deltasApplied: sync.counters.deltasApplied, gapsRepaired: sync.counters.gapsRepaired,
      resyncs: sync.counters.resyncs, hashMismatches: sync.counters.hashMismatches,
      reconnects: counters.reconnects, resends: counters.resends,
      applyFailures: counters.applyFailures, malformedMessages: counters.malformedMessages,
      unanswered: outbox.withLock { $0.entries.count })
  }
}
