/// The leader's exactly-once bookkeeping: for each follower client id, the last action number
/// it used up and the sequence at which its last applied action took effect.
///
/// The rules (the protocol spec's "Dispatch" section):
/// - only `last + 1` is applied; a number at or below `last` is a duplicate, answered with the
///   rejection it had when the ledger still keeps it (each client's last ``rejectionsKept``),
///   else with the sequence the ledger has (the action's own sequence when it was the last one,
///   otherwise the client's last applied sequence, which is at or after the action's, so
///   read-your-writes holds);
/// - a number above `last + 1` is a gap: refused without using a number up, and the follower
///   realigns with the ledger and resends in order;
/// - a rejected action uses its number up.
///
/// The ledger is part of the leader's state: it is journaled with the deltas that change it and
/// restored at recovery. Clients idle for longer than ``idleLimit`` sequences are forgotten
/// (see ``evictIdle(now:)``), and a forgotten client starts again at number 1.
public struct ClientLedger: Sendable, Equatable, Codable {
  /// One client's entry.
  public struct Entry: Sendable, Equatable, Codable {
    /// The last number used up, applied or rejected.
    public var lastNumber: UInt64
    /// The sequence at which the client's last applied action took effect (0 for none).
    public var lastSequence: UInt64
    /// The leader sequence at the client's last action, for idle eviction.
    public var lastActive: UInt64
    /// The client's latest rejected numbers with their rejections (at most
    /// ``ClientLedger/rejectionsKept``), so a rejected action sent again is rejected again.
    public var rejections: [UInt64: Rejection] = [:]
  }

  /// What to do with a forwarded action.
  public enum Verdict: Sendable, Equatable {
    /// It is the client's next number: decode, apply, record.
    case apply
    /// It was seen before and applied, or rejected longer ago than the ledger keeps rejections:
    /// answer with this sequence.
    case duplicate(sequence: UInt64)
    /// It was seen before and rejected: answer with the same rejection.
    case rejected(Rejection)
    /// A number is missing before it; refuse and expect this number first.
    case outOfOrder(expected: UInt64)
  }

  /// The entries by client id.
  public private(set) var entries: [String: Entry] = [:]
  /// Clients with no action for more than this many sequences are forgotten by ``evictIdle(now:)``.
  public var idleLimit: UInt64
  /// The most rejections kept per client (the latest, by number).
  public static let rejectionsKept = 64

  public init(idleLimit: UInt64 = 10_000_000) {
    self.idleLimit = idleLimit
  }

  /// A ledger holding exactly `entries`, as recovered from a journal.
  public init(idleLimit: UInt64 = 10_000_000, restoring entries: [String: Entry]) {
    self.idleLimit = idleLimit
    self.entries = entries
  }

  /// The last number `client` used up (0 for a client the leader does not know).
  public func lastNumber(of client: String) -> UInt64 {
    entries[client]?.lastNumber ?? 0
  }

  /// The verdict for action `number` of `client`.
  public func verdict(client: String, number: UInt64) -> Verdict {
    let entry = entries[client]
    let last = entry?.lastNumber ?? 0
    if number <= last {
      if let rejection = entry?.rejections[number] { return .rejected(rejection) }
      return .duplicate(sequence: entry?.lastSequence ?? 0)
    }
    if number == last + 1 { return .apply }
    return .outOfOrder(expected: last + 1)
  }

  /// Records that `number` of `client` took effect at `sequence`.
  public mutating func recordApplied(client: String, number: UInt64, sequence: UInt64) {
    entries[client, default: .unused].applied(
      number, at: sequence)
  }

  /// Records that `number` of `client` was rejected, with `rejection`, at leader sequence `now`;
  /// it is used up.
  public mutating func recordRejected(
    client: String, number: UInt64, now: UInt64, rejection: Rejection
  ) {
    entries[client, default: .unused].rejected(
      number, now: now, rejection: rejection)
  }

  /// Puts `client`'s entry back after a batch that did not commit: to `before` (its entry before
  /// the batch, nil for none), keeping the numbers the batch used and the rejections it recorded
  /// (from `after`, the entry after the batch), and recording each of its actions the batch
  /// applied, `undone`, as rejected with `rejection`.
  mutating func revert(
    client: String, before: Entry?, after: Entry, undone: [UInt64], rejection: Rejection,
    now: UInt64
  ) {
    var entry = before ?? .unused
    entry.rejections = after.rejections
    for number in undone { entry.rejected(number, now: now, rejection: rejection) }
    entry.lastNumber = after.lastNumber
    entry.lastActive = now
    entries[client] = entry
  }

  /// Forgets clients whose last action was more than ``idleLimit`` sequences before `now`;
  /// returns their ids.
  @discardableResult
  public mutating func evictIdle(now: UInt64) -> [String] {
    guard now > idleLimit else { return [] }
    let cutoff = now - idleLimit
    let idle = entries.filter { $0.value.lastActive < cutoff }.map(\.key)
    for client in idle { entries.removeValue(forKey: client) }
    return idle
  }
}

extension ClientLedger.Entry {
  /// The entry of a client the ledger has not seen: no number used yet.
  fileprivate static var unused: Self { Self(lastNumber: 0, lastSequence: 0, lastActive: 0) }

  fileprivate mutating func applied(_ number: UInt64, at sequence: UInt64) {
    lastNumber = number
    lastSequence = sequence
    lastActive = sequence
  }

  fileprivate mutating func rejected(_ number: UInt64, now: UInt64, rejection: Rejection) {
    lastNumber = number
    lastActive = now
    rejections[number] = rejection
    if rejections.count > ClientLedger.rejectionsKept, let oldest = rejections.keys.min() {
      rejections.removeValue(forKey: oldest)
    }
  }
}
