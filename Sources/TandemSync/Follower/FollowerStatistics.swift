import TandemProtocol

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
  /// Times the follower said `HELLO` again on its open connection to learn which action number
  /// the leader expects (after an `out-of-order` answer).
  public var realignments: Int
  /// Sends of actions and requests that the control socket could not queue at once (retried
  /// shortly).
  public var sendsDeferred: Int
  public var applyFailures: Int
  public var malformedMessages: Int
  /// Actions sent and not yet answered.
  public var unanswered: Int
}

extension FollowerEngine {
  func statistics() -> FollowerStatistics {
    let (sync, protocolCounters, unanswered) = shared.withLock {
      ($0.core.sync, $0.core.counters, $0.core.outbox.entries.count)
    }
    return FollowerStatistics(
      epoch: sync.epoch?.description ?? "", sequence: sync.sequence,
      deltasApplied: sync.counters.deltasApplied, gapsRepaired: sync.counters.gapsRepaired,
      resyncs: sync.counters.resyncs, hashMismatches: sync.counters.hashMismatches,
      reconnects: counters.reconnects, resends: protocolCounters.resends,
      realignments: protocolCounters.realignments, sendsDeferred: counters.sendsDeferred,
      applyFailures: counters.applyFailures, malformedMessages: counters.malformedMessages,
      unanswered: unanswered)
  }
}
