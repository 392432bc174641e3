import Tandem

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
  /// How often the leader sends a heartbeat when idle.
  public var heartbeatInterval: Duration = .milliseconds(500)
  /// The most recent deltas kept for catch-up, by count.
  public var backlogCount = 100_000
  /// The most recent deltas kept for catch-up, by patch bytes.
  public var backlogBytes = 64 << 20
  /// The largest message accepted on the control socket (`ZMQ_MAXMSGSIZE`); a peer that sends
  /// a larger one is disconnected by ZeroMQ.
  public var maxMessageSize = 16 << 20
  /// The updates socket's send high-water mark, in messages per subscriber; past it ZeroMQ
  /// drops deltas for that subscriber, which then repairs the gap by catch-up.
  public var updatesHighWaterMark: Int32 = 100_000
  /// Clients idle for more than this many sequences are forgotten by the exactly-once ledger.
  public var ledgerIdleLimit: UInt64 = 10_000_000
  /// The file of the leader's journal (SQLite), or nil to keep history in memory only (as
  /// ``Durability/off``: a new epoch, from the store's initial state, at every start). With a
  /// journal, a restarted leader recovers its state, sequence, epoch and ledger from it, and
  /// acknowledges an action only once the batch holding it has committed.
  public var journalPath: String?
  /// The journal's settings: ``Durability`` (`full` by default), snapshot cadence, catch-up
  /// window. With ``Durability/off`` no journal is opened, whatever ``journalPath`` says.
  public var journal = Journal.Configuration()
  /// An application version folded into the schema fingerprint; change it when the state's
  /// or the actions' encoding changes in a way their types' shapes do not show.
  public var schemaVersion = "1"
  /// Called on the leader's I/O thread for every forwarded action before it is applied; a
  /// returned ``Rejection`` refuses the action (its number is used up, nothing changes).
  public var validate: (@Sendable (_ action: any Action, _ origin: Origin) -> Rejection?)?

  /// A configuration binding the two endpoints.
  public init(control: String = "tcp://127.0.0.1:*", updates: String = "tcp://127.0.0.1:*") {
    self.control = control
    self.updates = updates
  }
}
