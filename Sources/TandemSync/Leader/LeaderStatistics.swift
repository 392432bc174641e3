import TandemProtocol

/// A leader's counters and followers, as `tandem stats` shows them.
public struct LeaderStatistics: Sendable, Equatable, Codable {
  /// One follower as the leader sees it.
  public struct Follower: Sendable, Equatable, Codable {
    /// Its client id.
    public var client: String
    /// Milliseconds since the leader last heard from it.
    public var lastSeenMillisecondsAgo: Int
    /// How many sequences its replica is behind the leader, as of its last `PING`.
    public var lag: UInt64
  }

  /// The leader's epoch, as 16 hexadecimal digits.
  public var epoch: String
  /// The sequence of the newest published state.
  public var sequence: UInt64
  /// How many deltas the in-memory backlog holds, and the oldest one's sequence (0 if none).
  public var backlogCount: Int
  public var backlogOldest: UInt64
  /// Named event counts: `deltasPublished`, `bytesPublished`, `snapshotsServed`,
  /// `snapshotsEncoded`, `catchUpsServed`, `staleCatchUps`, `actionsApplied`,
  /// `actionsRejected`, `duplicates`, `outOfOrder`, `malformedRequests`, `repliesDropped`.
  public var counters: [String: Int]
  /// The followers heard from recently.
  public var followers: [Follower]
}
