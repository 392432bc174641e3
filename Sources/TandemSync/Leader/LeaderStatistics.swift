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
  /// The leadership lease, for a standby leader's active run (see
  /// ``LeaderConfiguration/leaseStatus``): `nil` for a leader without one.
  public var lease: Lease?

  /// The leadership lease shared by standby leaders, as `STATS` reports it.
  public struct Lease: Sendable, Equatable, Codable {
    /// This leader's role: `standby`, `acquiring`, `recovering`, `active`, `steppingDown` or
    /// `demoting`.
    public var role: String
    /// The holder's leader id, its control endpoint and its fencing epoch, as last read.
    public var holder: String
    public var control: String
    public var fencingEpoch: UInt64
    /// How long this leader may still acknowledge, in milliseconds (measured conservatively
    /// from its last renewal's start); 0 when it does not hold the lease.
    public var millisecondsLeft: Int
    /// The other leader processes sharing the journal, besides this one and the holder, that
    /// announced themselves lately (within three lease lengths), in the order of their ids:
    /// those ready to take the lease over. Empty from a leader that does not send them.
    public var standbys: [Standby]

    public init(
      role: String, holder: String, control: String, fencingEpoch: UInt64, millisecondsLeft: Int,
      standbys: [Standby] = []
    ) {
      self.role = role
      self.holder = holder
      self.control = control
      self.fencingEpoch = fencingEpoch
      self.millisecondsLeft = millisecondsLeft
      self.standbys = standbys
    }

    /// A standby leader as the arbiter last heard of it (see `LeaseStore.announce`).
    public struct Standby: Sendable, Equatable, Codable {
      /// Its leader id.
      public var id: String
      /// The control endpoint it advertises.
      public var control: String
      /// What it said it was doing: `standby`, or `acquiring` while it takes the lease.
      public var role: String
      /// Milliseconds since it last announced itself (a standby does at each read of the
      /// lease, at least every sixth of the lease's length).
      public var lastSeenMillisecondsAgo: Int

      public init(id: String, control: String, role: String, lastSeenMillisecondsAgo: Int) {
        self.id = id
        self.control = control
        self.role = role
        self.lastSeenMillisecondsAgo = lastSeenMillisecondsAgo
      }
    }

    private enum CodingKeys: String, CodingKey {
      case role, holder, control, fencingEpoch, millisecondsLeft, standbys
    }

    /// Reads a lease; one from a leader that does not send `standbys` has none.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      role = try container.decode(String.self, forKey: .role)
      holder = try container.decode(String.self, forKey: .holder)
      control = try container.decode(String.self, forKey: .control)
      fencingEpoch = try container.decode(UInt64.self, forKey: .fencingEpoch)
      millisecondsLeft = try container.decode(Int.self, forKey: .millisecondsLeft)
      standbys = try container.decodeIfPresent([Standby].self, forKey: .standbys) ?? []
    }
  }

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
