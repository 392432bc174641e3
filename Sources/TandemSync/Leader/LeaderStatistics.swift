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
    /// The `CATCHUP`s it sent: each a gap it saw in the updates, such as the deltas the leader
    /// dropped for it once ``LeaderConfiguration/maximumQueuedBytes`` waited for it; `nil` from
    /// a leader that does not send it.
    public var catchUps: Int?
    /// The sequences it lacked at those catch-ups, added up: the updates it missed.
    public var missed: UInt64?

    public init(
      client: String, lastSeenMillisecondsAgo: Int, lag: UInt64, catchUps: Int? = nil,
      missed: UInt64? = nil
    ) {
      self.client = client
      self.lastSeenMillisecondsAgo = lastSeenMillisecondsAgo
      self.lag = lag
      self.catchUps = catchUps
      self.missed = missed
    }
  }

  /// One client of the leader's ledger: a follower or a one-off sender (`tandem dispatch`)
  /// with an action applied or rejected, as long as the ledger keeps it.
  public struct Client: Sendable, Equatable, Codable {
    /// Its client id.
    public var client: String
    /// The last action number it used up.
    public var lastNumber: UInt64
    /// The sequence at which its last applied action took effect (0 for none).
    public var lastSequence: UInt64
  }

  /// The most ledger clients a `STATS` reply lists (the most recently active).
  public static let clientsListed = 1000

  /// The leader's epoch, as 16 hexadecimal digits.
  public var epoch: String
  /// The sequence of the newest published state.
  public var sequence: UInt64
  /// How many deltas the in-memory backlog holds, and the oldest one's sequence (0 if none).
  public var backlogCount: Int
  public var backlogOldest: UInt64
  /// Named event counts: `deltasPublished`, `bytesPublished`, `snapshotsServed`,
  /// `snapshotsEncoded`, `catchUpsServed`, `staleCatchUps`, `actionsApplied`,
  /// `actionsRejected` (every rejection sent, `commit-failed` ones included), `duplicates`,
  /// `outOfOrder`, `malformedRequests`, `repliesDropped`, `commits`, `commitFailures`,
  /// `unauthorized` (requests and dispatches a key's role did not allow), `deltasUnpublished`
  /// (deltas too large for one update message, which followers fetch by catch-up).
  public var counters: [String: Int]
  /// The followers heard from recently (said `HELLO`, heard from within a minute).
  public var followers: [Follower]
  /// The ledger's clients, most recently active first, at most ``clientsListed``; `nil` from a
  /// leader that does not send them.
  public var clients: [Client]?
  /// How many clients the ledger holds; `nil` from a leader that does not send it.
  public var clientCount: Int?
  /// Why the leader is degraded, when it is: its journal refuses commits (every action is
  /// rejected `commit-failed`), with the last error and how many batches were refused since
  /// the last commit that went through. `nil` for a healthy leader.
  public var degraded: String?
  /// The leader's security: `nil` from a leader that does not send it.
  public var security: Security?

  /// A leader's security, as `STATS` reports it.
  public struct Security: Sendable, Equatable, Codable {
    /// `curve` (encrypted, keys checked by the key store) or `plain`.
    public var mode: String
    /// How many keys the key store holds (0 in plain mode).
    public var keys: Int
    /// The handshakes that failed, by reason, as the sockets' monitors reported them:
    /// `unknown-key` (a key not in the store: unknown or revoked), `mechanism-mismatch` (a
    /// peer without keys, or with keys against a plain leader), `cryptographic` (a peer that
    /// pinned another leader key), `no-detail` (the peer closed the connection during the
    /// handshake), `protocol-0x...` and `zap-...` for others.
    public var handshakeFailures: [String: Int]
  }
}
