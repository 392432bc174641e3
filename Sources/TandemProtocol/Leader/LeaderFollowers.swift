/// The followers a leader tracks: when each was last heard from (`HELLO` or `PING`), the
/// sequence its replica reported, and the connection that owns its client id.
///
/// The connection that last said `HELLO` for a client id is the only one whose dispatches the
/// leader accepts for it. The table is bounded: followers not heard from for the silence limit
/// are forgotten, and the least recently heard from beyond the most followers kept, with the
/// client ids they owned (a `PING` under a new client id adds none: only a `HELLO` does).
package struct LeaderFollowers: Sendable {
  /// One follower's record.
  package struct Follower: Sendable, Equatable {
    package var lastSeen: ContinuousClock.Instant
    /// The sequence its replica last reported (0 until a `PING` says).
    package var sequence: UInt64
    /// The `CATCHUP`s its connection sent: each one a gap it saw in the updates (deltas the
    /// leader dropped for it at the updates bound, or lost on the way, or not published).
    package var catchUps = 0
    /// The sequences it lacked when it sent them, added up: what it missed.
    package var missed: UInt64 = 0

    package init(lastSeen: ContinuousClock.Instant, sequence: UInt64) {
      self.lastSeen = lastSeen
      self.sequence = sequence
    }
  }

  /// The followers by client id.
  package private(set) var records: [String: Follower] = [:]
  /// The connection that owns each tracked client id.
  package private(set) var owners: [String: Frame] = [:]
  /// The client id each connection owns: ``owners`` the other way.
  private var clients: [Frame: String] = [:]
  /// The followers in the order they were last heard from, oldest first.
  private var bySeen = RecencyQueue<String, ContinuousClock.Instant>()
  /// The most followers kept.
  package var maximumCount: Int
  /// How long a follower not heard from stays in the table.
  package var silenceLimit: Duration

  package init(maximumCount: Int, silenceLimit: Duration) {
    self.maximumCount = maximumCount
    self.silenceLimit = silenceLimit
  }

  /// Makes `connection` the owner of `client`, heard from at `now` (a `HELLO` welcomed).
  package mutating func welcomed(
    _ client: String, on connection: Frame, now: ContinuousClock.Instant
  ) {
    if let previous = owners[client], clients[previous] == client { clients[previous] = nil }
    owners[client] = connection
    clients[connection] = client
    seen(client, at: nil, now: now)
  }

  /// Whether `connection` may dispatch for `client`: it owns it, or no connection does.
  package func accepts(_ client: String, from connection: Frame) -> Bool {
    guard let owner = owners[client] else { return true }
    return owner == connection
  }

  /// Notes a `PING` of `client` reporting `sequence`; only followers that said `HELLO` are
  /// tracked (an operator's tool pings to check liveness).
  package mutating func pinged(_ client: String, sequence: UInt64, now: ContinuousClock.Instant) {
    if records[client] != nil { seen(client, at: sequence, now: now) }
  }

  /// Notes a `CATCHUP` from `connection` for `missing` sequences (the leader's sequence after
  /// the replica's), when that connection owns a tracked client id.
  package mutating func caughtUp(_ connection: Frame, missing: UInt64) {
    guard let client = clients[connection], records[client] != nil else { return }
    records[client]?.catchUps += 1
    records[client]?.missed += missing
  }

  /// The client id `connection` owns, if any.
  package func client(of connection: Frame) -> String? { clients[connection] }

  /// Notes that `client` was heard from at `now`, with the sequence its replica reported, if
  /// any, then forgets the followers no longer tracked. Amortized O(1).
  private mutating func seen(_ client: String, at sequence: UInt64?, now: ContinuousClock.Instant) {
    var record = records[client] ?? Follower(lastSeen: now, sequence: 0)
    record.lastSeen = now
    if let sequence { record.sequence = sequence }
    records[client] = record
    var queue = takeQueue()
    queue.append(client, at: now, tableCount: records.count) { self.records[$0]?.lastSeen == $1 }
    bySeen = queue
    forget(now: now)
  }

  /// Forgets the followers not heard from for ``silenceLimit`` before `now`, and the least
  /// recently heard from beyond ``maximumCount``, with the client ids they owned.
  package mutating func forget(now: ContinuousClock.Instant) {
    let cutoff = now - silenceLimit
    var queue = takeQueue()
    while let oldest = queue.oldest(isCurrent: { self.records[$0]?.lastSeen == $1 }),
      oldest.stamp < cutoff || records.count > maximumCount
    {
      records[oldest.key] = nil
      if let connection = owners.removeValue(forKey: oldest.key), clients[connection] == oldest.key
      {
        clients[connection] = nil
      }
      queue.removeOldest()
    }
    bySeen = queue
  }

  /// The recency queue, moved out so that it is changed in place while its tests read the table.
  private mutating func takeQueue() -> RecencyQueue<String, ContinuousClock.Instant> {
    let queue = bySeen
    bySeen = RecencyQueue()
    return queue
  }
}
