import Tandem
import TandemJournal
import TandemProtocol

/// How a ``Leader`` binds, paces and bounds itself.
///
/// ```swift
/// var configuration = LeaderConfiguration(control: "tcp://*:5600", updates: "tcp://*:5601")
/// configuration.heartbeatInterval = .milliseconds(250)
/// ```
public struct LeaderConfiguration: Sendable {
  /// Where the control socket (ROUTER) binds, e.g. `tcp://*:5600` or `tcp://127.0.0.1:*`.
  public var control: String
  /// Where the updates socket (XPUB) binds.
  public var updates: String
  /// The updates endpoint announced to followers in `WELCOME`; by default the bound one.
  public var advertisedUpdates: String?
  /// Where the leader logs; by default a logger labelled `leader` with the handler the
  /// bootstrapped factory makes (see ``TandemLogging``).
  public var logger: TandemLogger?
  /// How often the leader sends a heartbeat when idle.
  public var heartbeatInterval: Duration = .milliseconds(500)
  /// The most recent deltas kept for catch-up, by count.
  public var backlogCount = 100_000
  /// The most recent deltas kept for catch-up, by patch bytes.
  public var backlogBytes = 64 << 20
  /// The most patch bytes one catch-up (a `DELTAS` reply) carries, from the backlog or the
  /// journal; a follower further behind is answered `STALE` and takes a snapshot instead. By
  /// default what the backlog keeps at most (``backlogBytes``).
  public var maximumCatchUpBytes = 64 << 20
  /// The largest action payload the leader accepts, and about the largest frame on the control
  /// socket (`ZMQ_MAXMSGSIZE` is this plus the 532 bytes a `DISPATCH` body holds beside its
  /// payload); a peer that sends a larger frame is disconnected by ZeroMQ. It must hold a
  /// follower's `HELLO`, which carries the follower's schema (`--print-schema` shows it; a few
  /// kilobytes for most applications).
  public var maxMessageSize = 16 << 20
  /// The most bytes of replies larger than 4 KiB (`STATE`, `DELTAS`, `STATS`, a `WELCOME` with a
  /// large schema, ...) the leader lets wait in one control connection's queue (ZeroMQ's, until
  /// they are written to the network). Past it, another such reply is dropped (counted in
  /// `messagesDropped`) and the request goes unanswered, as when the connection's queue is
  /// full: a follower asks again after its timeouts, and one that reads its replies never has
  /// more than one waiting. A reply is always sent when none waits, whatever its size. Smaller
  /// replies are bounded by ZeroMQ's high-water mark (1000 messages per connection): 4 MiB.
  public var maximumQueuedReplyBytes = 16 << 20
  /// The most bytes of updates (deltas, heartbeats) the leader lets wait for one follower that
  /// does not read them; past it the follower misses updates, and repairs the gap by catch-up
  /// or snapshot when it reads again (`STATS` counts each follower's catch-ups and the
  /// sequences it missed). The leader keeps each update message within 128 KiB (or this bound,
  /// if smaller) and sets the updates socket's high-water mark to this many bytes of such
  /// messages; a delta larger than one message is not published, and followers fetch it by
  /// catch-up. At least 4 KiB. See the protocol's "Bounds in bytes".
  public var maximumQueuedBytes = 64 << 20
  /// The most messages the updates socket queues per follower (ZeroMQ's send high-water mark);
  /// the leader uses the smaller of this and what ``maximumQueuedBytes`` allows.
  public var updatesHighWaterMark: Int32 = 100_000
  /// Clients idle for more than this many sequences are forgotten by the exactly-once ledger. A
  /// follower cut off while the leader applies more than this finds itself forgotten when it
  /// reconnects: the actions it sent that the leader may have applied before forgetting it fail
  /// with ``FollowerError/outcomeUnknown`` (the protocol's "Dispatch" section), and are never
  /// applied twice.
  public var ledgerIdleLimit: UInt64 = 10_000_000
  /// The most clients the exactly-once ledger keeps (each costs a journal row, and up to
  /// ``ClientLedger/rejectionsKept`` rejections). When a batch leaves more, the leader forgets
  /// the least recently active beyond it: first the clients none of whose actions was applied
  /// (only rejected, as a misbehaving client's new ids are), then the others, each by the
  /// sequence of its last action. A forgotten client loses exactly once as with
  /// ``ledgerIdleLimit``: keep this well above the number of clients that dispatch to the
  /// leader within the idle limit (followers with random ids count one per process).
  public var maximumLedgerClients = 100_000
  /// The most followers the leader keeps track of: their `STATS` entries, and which connection
  /// owns each one's client id (see ``LeaderStatistics/followers`` and the protocol's `superseded`
  /// error). Past it, it forgets the follower heard from (`HELLO` or `PING`) least recently, as
  /// it forgets one not heard from for a minute: a dispatch for that client id is then accepted
  /// from any connection, as for a client id no connection has said `HELLO` for, until its
  /// follower says `HELLO` again.
  public var maximumFollowers = 10_000
  /// Where the leader's journal is (an SQLite file or a PostgreSQL database), or nil to keep
  /// history in memory only (as ``Durability/off``: a new epoch, from the store's initial
  /// state, at every start). With a journal, a restarted leader recovers its state, sequence,
  /// epoch and ledger from it, and acknowledges an action only once the batch holding it has
  /// committed.
  public var journalLocation: JournalLocation?
  /// The file of the leader's SQLite journal: ``journalLocation`` as a path (nil for a
  /// PostgreSQL journal or none); setting it sets ``journalLocation`` to that file.
  public var journalPath: String? {
    get {
      guard case .sqlite(let path) = journalLocation else { return nil }
      return path
    }
    set { journalLocation = newValue.map { .sqlite(path: $0) } }
  }
  /// The journal's settings: ``Durability`` (`full` by default), snapshot cadence, catch-up
  /// window. With ``Durability/off`` no journal is opened, whatever ``journalLocation`` says.
  public var journal = Journal.Configuration()
  /// An application version folded into the schema fingerprint; change it when the state's
  /// or the actions' encoding changes in a way their types' shapes do not show.
  public var schemaVersion = "1"
  /// Whether each applied action is its own delta (the default) or the actions applied
  /// together share one.
  public var deltaGrouping = DeltaGrouping.perAction
  /// Called on the leader's I/O thread for every forwarded action before it is applied; a
  /// returned ``Rejection`` refuses the action (its number is used up, nothing changes). A
  /// rejection with code ``Rejection/Code/outOfOrder``, which would tell the follower that the
  /// number is not used up, is sent as ``Rejection/Code/refused`` with its message.
  public var validate: (@Sendable (_ action: any Action, _ origin: Origin) -> Rejection?)?
  /// Asked before every acknowledgement the leader sends (`ACK`, `WELCOME`, `DELTA`,
  /// `DELTAS`): while it answers `false` they are dropped and counted (reason `withheld`), and
  /// followers send their actions again to whichever leader serves next. A standby leader's
  /// lease keeper answers it (see the Protocol article, "When a leader may acknowledge"); nil
  /// (the default) acknowledges always.
  public var mayAcknowledge: (@Sendable () -> Bool)?
  /// Called on the leader's I/O thread when a commit could not be decided: the journal fenced
  /// it off (`fenced` true), or its outcome is unknown (the connection to the shared journal
  /// failed; `reason` says how). The leader answers none of its actions nor any later one; a
  /// standby leader's ``LeaseKeeper/commitUndecided(fenced:reason:)`` demotes it. Nil: nobody
  /// is told.
  public var commitUndecided: (@Sendable (_ fenced: Bool, _ reason: String) -> Void)?
  /// The leadership lease as `STATS` reports it (a standby leader's ``LeaseKeeper/lease()``);
  /// nil (the default) for a leader without one.
  public var leaseStatus: (@Sendable () -> LeaderStatistics.Lease?)?
  /// Called on the leader's I/O thread for an operator's `STEP-DOWN` (`tandem failover`):
  /// begins a clean hand-over of the leadership lease and returns the lease handed over (this
  /// leader's id and fencing epoch), which `HANDING-OVER` names; nil when this leader holds no
  /// lease to hand over right now. It must not block: the hand-over itself (commit and answer
  /// the batch in flight, give the lease up, close the sockets) happens afterwards, off this
  /// thread. A standby leader's ``LeaseKeeper/stepDown()`` answers it. Nil (the default): the
  /// leader runs without standby leaders, and `STEP-DOWN` is answered `ERROR no-lease`.
  public var stepDown: (@Sendable () -> LeaseRecord?)?
  /// The leader's CURVE keys and key store; `nil` (the default) runs in plain mode, with no
  /// encryption and no authentication, which the leader's first log line says.
  public var security: LeaderSecurity?
  /// The lease a ``StandbyLeader`` took, which every write to its PostgreSQL journal is
  /// checked against; nil for a leader without one.
  var fencing: PostgresJournal.Fencing?

  /// A configuration binding the two endpoints.
  public init(control: String = "tcp://127.0.0.1:*", updates: String = "tcp://127.0.0.1:*") {
    self.control = control
    self.updates = updates
  }

  /// How the leader turns applied actions into published deltas.
  public enum DeltaGrouping: Sendable, Equatable {
    /// One delta per action, each with its own patch, diffed as the action is applied:
    /// followers see every state the leader passes through.
    case perAction
    /// One delta for the actions applied between two publications (the requests that arrived
    /// together, or local dispatches made while the leader was busy), diffed once from the
    /// last published state. Each action keeps its own sequence, origin and tag, but followers
    /// see only the state after the group. Under load this saves the leader a diff per action,
    /// the followers a patch per action and the network a message per action; when actions
    /// arrive one at a time it publishes exactly as ``perAction`` does.
    case perBatch
  }
}

extension LeaderConfiguration {
  /// The logger the leader writes to: ``logger``, or a new one labelled `leader`.
  var log: TandemLogger { logger ?? TandemLogger(label: "leader") }

  /// The bound on each follower's queue of updates that ``maximumQueuedBytes`` and
  /// ``updatesHighWaterMark`` make.
  var updatesBound: UpdatesBound {
    UpdatesBound(
      maximumQueuedBytes: max(maximumQueuedBytes, UpdatesBound.minimumQueuedBytes),
      highWaterMark: max(updatesHighWaterMark, 1))
  }
}
