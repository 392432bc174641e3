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
/// - a rejected action uses its number up;
/// - the process that owns a client id is known by its **generation**, which the ledger hands
///   out at `HELLO` (``hello(client:generation:now:fresh:)``): a process that was handed a generation
///   older than the client's current one was taken over by another process, and is refused, so
///   that its unanswered actions are never answered as duplicates of the other's.
///
/// The ledger is part of the leader's state: it is journaled with the deltas that change it and
/// restored at recovery. It forgets clients idle for longer than ``idleLimit`` sequences, and
/// the least recently active beyond ``maximumClients`` (see ``evict(now:)``); a forgotten
/// client starts again at number 1. ``forgottenThrough`` keeps how recent the forgotten
/// clients' activity was, so that a follower can tell whether an action it sent may have been
/// applied by a leader that has since forgotten it.
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
    /// The client's latest runs of consecutive numbers rejected together (at most
    /// ``ClientLedger/rejectedRunsKept``): the actions of a batch the journal refused, however
    /// many, so that none of them sent again is answered as a duplicate of an applied action.
    public var rejectedRuns: [RejectedRun] = []
    /// The generation of the process that owns the client id: the one the latest `HELLO` that
    /// took the id over was handed (0 when no process said `HELLO` for it).
    public var generation: UInt64 = 0
    /// The generation the owner said `HELLO` with when the ledger did not record it and handed
    /// it ``generation`` instead (0 for none): that `HELLO` said again is the owner's. Kept in
    /// memory only (not journaled, not compared): after a restart such a `HELLO` is refused as
    /// superseded, which stops the process rather than mix two numberings.
    public var renewedFrom: UInt64 = 0
    /// The name of the key the client id is bound to: the first authenticated key that used
    /// it (said `HELLO` or dispatched for it). Another key cannot use the id. Empty while no
    /// key used it (a leader without CURVE keys binds none).
    public var key: String = ""

    /// An entry with no rejections kept.
    public init(
      lastNumber: UInt64, lastSequence: UInt64, lastActive: UInt64, generation: UInt64 = 0,
      key: String = ""
    ) {
      self.lastNumber = lastNumber
      self.lastSequence = lastSequence
      self.lastActive = lastActive
      self.generation = generation
      self.key = key
    }

    private enum CodingKeys: String, CodingKey {
      case lastNumber, lastSequence, lastActive, rejections, rejectedRuns, generation, key
    }

    /// Decodes an entry (one encoded without a generation has 0: no owner known; one without a
    /// key is bound to none).
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        lastNumber: try container.decode(UInt64.self, forKey: .lastNumber),
        lastSequence: try container.decode(UInt64.self, forKey: .lastSequence),
        lastActive: try container.decode(UInt64.self, forKey: .lastActive),
        generation: try container.decodeIfPresent(UInt64.self, forKey: .generation) ?? 0,
        key: try container.decodeIfPresent(String.self, forKey: .key) ?? "")
      rejections = try container.decode([UInt64: Rejection].self, forKey: .rejections)
      rejectedRuns =
        try container.decodeIfPresent([RejectedRun].self, forKey: .rejectedRuns) ?? []
    }

    /// Entries are equal when what the journal keeps of them is (``renewedFrom`` aside).
    public static func == (left: Entry, right: Entry) -> Bool {
      left.lastNumber == right.lastNumber && left.lastSequence == right.lastSequence
        && left.lastActive == right.lastActive && left.rejections == right.rejections
        && left.rejectedRuns == right.rejectedRuns && left.generation == right.generation
        && left.key == right.key
    }

    /// The rejection the ledger keeps for `number`, alone or in a run.
    public func rejection(of number: UInt64) -> Rejection? {
      if let rejection = rejections[number] { return rejection }
      return rejectedRuns.last { $0.numbers.contains(number) }?.rejection
    }
  }

  /// Consecutive numbers of one client rejected with one rejection.
  public struct RejectedRun: Sendable, Equatable, Codable {
    public var numbers: ClosedRange<UInt64>
    public var rejection: Rejection

    public init(numbers: ClosedRange<UInt64>, rejection: Rejection) {
      self.numbers = numbers
      self.rejection = rejection
    }
  }

  /// What to answer a `HELLO`.
  public enum Greeting: Sendable, Equatable {
    /// Welcome the process: from now on it owns the client id under this generation (the one
    /// it sent, when it already owned the id; else a new one, which takes the id over).
    case welcome(generation: UInt64)
    /// Another process took the client id over since this one was handed its generation:
    /// refuse it (`superseded`); `current` is the owner's generation.
    case superseded(current: UInt64)
    /// The client id is bound to another key, `owner`: refuse it (`unauthorized`).
    case unauthorized(owner: String)
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
    /// The sender's generation is one the ledger did not hand or no longer records, or the
    /// ledger holds nothing of its client id (it forgot the client, or lost the end of its
    /// history): its number says nothing the ledger can check (number 1 could apply an action
    /// a second time), so refuse it without using it up; the sender realigns with `HELLO`,
    /// whose `WELCOME` says which of its actions may have been applied.
    case unknownSender
  }

  /// The entries by client id.
  public private(set) var entries: [String: Entry] = [:]
  /// Clients with no action for more than this many sequences are forgotten by ``evict(now:)``.
  public var idleLimit: UInt64
  /// The most clients kept: ``evict(now:)`` forgets the least recently active beyond it.
  public var maximumClients: Int
  /// The most rejections kept per client (the latest, by number).
  public static let rejectionsKept = 64
  /// The most runs of numbers rejected together kept per client (the latest).
  public static let rejectedRunsKept = 16
  /// The latest ``Entry/lastActive`` of any client this ledger has forgotten (0 when it never
  /// forgot one): a client's action applied after this sequence is still in the ledger. The
  /// leader sends it in `WELCOME`, so a follower that finds itself unknown can tell whether an
  /// action it sent when its replica was at sequence `s` may have been applied and forgotten
  /// (`s` below it) or was never applied (`s` at or above it).
  public private(set) var forgottenThrough: UInt64 = 0

  /// The clients none of whose actions was applied (rejected ones only), oldest activity
  /// first: the first to go beyond ``maximumClients``.
  private var rejectedOnly = RecencyQueue<String, UInt64>()
  /// The clients with an applied action, oldest activity first.
  private var applied = RecencyQueue<String, UInt64>()

  /// An empty ledger.
  public init(idleLimit: UInt64 = 10_000_000, maximumClients: Int = 100_000) {
    self.idleLimit = idleLimit
    self.maximumClients = maximumClients
  }

  /// A ledger holding exactly `entries`, as recovered from a journal, whose forgotten clients
  /// were last active at `forgottenThrough` at the latest.
  public init(
    idleLimit: UInt64 = 10_000_000, maximumClients: Int = 100_000,
    restoring entries: [String: Entry], forgottenThrough: UInt64 = 0
  ) {
    self.init(idleLimit: idleLimit, maximumClients: maximumClients)
    self.entries = entries
    self.forgottenThrough = forgottenThrough
    for (client, entry) in Self.byActivity(entries) { noteActivity(of: client, entry) }
  }

  /// The last number `client` used up (0 for a client the leader does not know).
  public func lastNumber(of client: String) -> UInt64 {
    entries[client]?.lastNumber ?? 0
  }

  /// The verdict for action `number` of `client`.
  public func verdict(client: String, number: UInt64) -> Verdict {
    Self.verdict(of: entries[client], number: number)
  }

  /// The verdict for action `number` of the client whose entry is `entry` (nil for none).
  static func verdict(of entry: Entry?, number: UInt64) -> Verdict {
    let last = entry?.lastNumber ?? 0
    if number <= last {
      if let rejection = entry?.rejection(of: number) { return .rejected(rejection) }
      return .duplicate(sequence: entry?.lastSequence ?? 0)
    }
    if number == last + 1 { return .apply }
    return .outOfOrder(expected: last + 1)
  }

  /// Answers a `HELLO` of `client` from a process handed `generation` (0 for a process that has
  /// not been welcomed yet), where `fresh` (at least 1) is a random step the caller draws for a
  /// new owner:
  /// - the process that owns the id keeps it (`generation` is the ledger's);
  /// - a process handed an older generation than the ledger's was taken over, and is refused;
  /// - a generation above the ledger's is one this ledger did not hand or no longer records (it
  ///   lost the `HELLO` with the end of a journal, or the process was welcomed in another
  ///   history): the ledger cannot tell that process from another one holding such a generation
  ///   too (two processes started with one client id while a leader without its ledger
  ///   restarted), so it hands it a new generation above both, and the process owns the id
  ///   from now on, as a new process would. The ledger remembers which generation it renewed
  ///   (``Entry/renewedFrom``, not journaled): the same `HELLO` said again before its `WELCOME`
  ///   arrived (a lost reply, a reconnect) is welcomed under the new one;
  /// - a new process takes the id over under the ledger's generation plus `fresh`. The random
  ///   step keeps the generations of two ledgers apart (a leader that started a new history
  ///   hands out generations a returning process may also hold from the old one): two
  ///   processes never own an id under one generation, which would let one's deltas answer the
  ///   other's actions.
  ///
  /// `now` is the leader's sequence, the activity of an entry the `HELLO` creates.
  ///
  /// `key` is the name of the key the process authenticated with (empty without CURVE keys):
  /// an id bound to another key is refused, one bound to none is bound to it
  /// (``Entry/key``).
  public mutating func hello(
    client: String, generation: UInt64, now: UInt64, fresh: UInt64, key: String = ""
  ) -> Greeting {
    if let owner = owner(of: client, otherThan: key) { return .unauthorized(owner: owner) }
    bind(client, to: key)
    let current = entries[client]?.generation ?? 0
    // The same process again, before the WELCOME that renewed its generation reached it.
    if generation != 0, let entry = entries[client], entry.renewedFrom == generation {
      return .welcome(generation: current)
    }
    if generation != 0 && generation < current { return .superseded(current: current) }
    if generation != 0 && generation == current { return .welcome(generation: generation) }
    let (stepped, overflow) = max(current, generation).addingReportingOverflow(max(fresh, 1))
    let owner = overflow ? UInt64.max : stepped
    own(client, generation: owner, now: now, key: key)
    entries[client]?.renewedFrom = generation
    return .welcome(generation: owner)
  }

  /// Whether an action sent by a process handed `generation` is its owner's.
  public enum Sender: Sendable, Equatable {
    /// The owner's (or a sender that said no `HELLO`, generation 0, which is not checked).
    case owner
    /// A process another process took the client id over from: refuse it (`superseded`).
    case superseded(current: UInt64)
    /// A generation this ledger did not hand or no longer records (see
    /// ``hello(client:generation:now:fresh:)``), or a client it holds nothing of: the sender
    /// must say `HELLO` to this ledger before its numbers mean anything here.
    case unknown
  }

  /// Who sent an action of `client` from a process handed `generation`: a generation below the
  /// ledger's is a process taken over; one above it (or any, for a client the ledger does not
  /// hold) is one this ledger did not hand or no longer records. `now` is the leader's
  /// sequence.
  public mutating func admit(client: String, generation: UInt64, now: UInt64) -> Sender {
    guard generation != 0 else { return .owner }
    let current = entries[client]?.generation ?? 0
    if generation < current { return .superseded(current: current) }
    if generation > current { return .unknown }
    return .owner
  }

  /// The key `client` is bound to when it is another than `key`; `nil` when it is `key`'s, is
  /// bound to none, or `key` is empty (no authentication: nothing to check against).
  public func owner(of client: String, otherThan key: String) -> String? {
    guard !key.isEmpty, let owner = entries[client]?.key, !owner.isEmpty, owner != key else {
      return nil
    }
    return owner
  }

  /// Binds `client`'s entry, when it has one bound to no key, to `key` (a new entry is bound
  /// as ``recordApplied(client:number:sequence:key:)`` and the others make it).
  private mutating func bind(_ client: String, to key: String) {
    guard !key.isEmpty, let entry = entries[client], entry.key.isEmpty else { return }
    entries[client]!.key = key
  }

  /// Makes `generation` the owner's of `client` (a new entry is active at `now`).
  private mutating func own(_ client: String, generation: UInt64, now: UInt64, key: String = "") {
    if entries[client] != nil {
      entries[client]!.generation = generation
    } else {
      update(client) { entry in
        entry.generation = generation
        entry.lastActive = now
        entry.key = key
      }
    }
  }

  /// Records that `number` of `client` took effect at `sequence`, sent with `key` (which a
  /// client id bound to no key is bound to).
  public mutating func recordApplied(
    client: String, number: UInt64, sequence: UInt64, key: String = ""
  ) {
    update(client) { entry in
      entry.applied(number, at: sequence)
      if entry.key.isEmpty { entry.key = key }
    }
  }

  /// Records that `number` of `client` was rejected, with `rejection`, at leader sequence `now`;
  /// it is used up. `key` binds a client id bound to no key, as in
  /// ``recordApplied(client:number:sequence:key:)``.
  public mutating func recordRejected(
    client: String, number: UInt64, now: UInt64, rejection: Rejection, key: String = ""
  ) {
    update(client) { entry in
      entry.rejected(number, now: now, rejection: rejection)
      if entry.key.isEmpty { entry.key = key }
    }
  }

  /// Puts `client`'s entry back after a batch that did not commit: to `before` (its entry before
  /// the batch, nil for none), keeping the numbers the batch used, its owner's generation and the rejections it recorded
  /// (from `after`, the entry after the batch), and recording each of its actions the batch
  /// applied, `undone`, as rejected with `rejection`.
  package mutating func revert(
    client: String, before: Entry?, after: Entry, undone: [UInt64], rejection: Rejection,
    now: UInt64
  ) {
    update(client) { entry in
      entry = before ?? .unused
      entry.rejections = after.rejections
      entry.rejectedRuns = after.rejectedRuns
      entry.rejected(runsOf: undone, now: now, rejection: rejection)
      entry.lastNumber = after.lastNumber
      entry.generation = after.generation
      entry.key = after.key
      entry.lastActive = now
    }
  }

  /// Takes the entries of `changed` and forgets the clients of `forgotten` (none of them in
  /// `changed`), last active at `forgottenThrough` at the latest: what a batch changed in
  /// another copy of the ledger.
  package mutating func apply(
    _ changed: [String: Entry], forgetting forgotten: [String], forgottenThrough: UInt64
  ) {
    for (client, entry) in Self.byActivity(changed) { update(client) { $0 = entry } }
    for client in forgotten { entries.removeValue(forKey: client) }
    self.forgottenThrough = max(self.forgottenThrough, forgottenThrough)
  }

  /// Forgets the clients whose last action was more than ``idleLimit`` sequences before `now`,
  /// then, while more than ``maximumClients`` are left, the least recently active: first those
  /// none of whose actions was applied (only rejected), then the others, each by the sequence
  /// of its last action. Returns their ids.
  ///
  /// It costs in proportion to the clients it forgets, not to the clients in the ledger.
  @discardableResult
  public mutating func evict(now: UInt64) -> [String] {
    let cutoff = now > idleLimit ? now - idleLimit : 0
    var forgotten: [String] = []
    for hasApplied in [false, true] {
      while let oldest = oldest(hasApplied: hasApplied), oldest.lastActive < cutoff {
        forgotten.append(forget(oldest.client, hasApplied: hasApplied))
      }
    }
    while entries.count > maximumClients {
      let hasApplied = oldest(hasApplied: false) == nil
      guard let oldest = oldest(hasApplied: hasApplied) else { break }
      forgotten.append(forget(oldest.client, hasApplied: hasApplied))
    }
    return forgotten
  }

  /// Changes `client`'s entry (a new one for a client the ledger does not know) and notes a
  /// change of its activity.
  private mutating func update(_ client: String, _ change: (inout Entry) -> Void) {
    // Changed in place, with one lookup: every applied action updates its client's entry.
    guard let index = entries.index(forKey: client) else {
      var entry = Entry.unused
      change(&entry)
      entries[client] = entry
      noteActivity(of: client, entry)
      return
    }
    let (lastActive, hasApplied) = (
      entries.values[index].lastActive, entries.values[index].hasApplied
    )
    change(&entries.values[index])
    let entry = entries.values[index]
    if lastActive != entry.lastActive || hasApplied != entry.hasApplied {
      noteActivity(of: client, entry)
    }
  }

  private mutating func noteActivity(of client: String, _ entry: Entry) {
    let isCurrent = Self.isCurrent(in: entries, hasApplied: entry.hasApplied)
    if entry.hasApplied {
      applied.append(client, at: entry.lastActive, tableCount: entries.count, isCurrent: isCurrent)
    } else {
      rejectedOnly.append(
        client, at: entry.lastActive, tableCount: entries.count, isCurrent: isCurrent)
    }
  }

  /// The least recently active client with an applied action, or without one.
  private mutating func oldest(hasApplied: Bool) -> (client: String, lastActive: UInt64)? {
    let isCurrent = Self.isCurrent(in: entries, hasApplied: hasApplied)
    let oldest =
      hasApplied ? applied.oldest(isCurrent: isCurrent) : rejectedOnly.oldest(isCurrent: isCurrent)
    return oldest.map { ($0.key, $0.stamp) }
  }

  /// Forgets `client`, the oldest of its queue; returns it.
  private mutating func forget(_ client: String, hasApplied: Bool) -> String {
    // An entry that used no number (a HELLO's alone) had no action that could have been applied.
    if let entry = entries.removeValue(forKey: client), entry.lastNumber != 0 {
      forgottenThrough = max(forgottenThrough, entry.lastActive)
    }
    if hasApplied { applied.removeOldest() } else { rejectedOnly.removeOldest() }
    return client
  }

  /// `entries` in the order of their activity, a tie in client id order (the same at every
  /// recovery).
  private static func byActivity(_ entries: [String: Entry]) -> [(key: String, value: Entry)] {
    entries.sorted { ($0.value.lastActive, $0.key) < ($1.value.lastActive, $1.key) }
  }

  /// Whether a queue's mark (a client and the activity it had then) is still the client's.
  private static func isCurrent(
    in entries: [String: Entry], hasApplied: Bool
  ) -> (String, UInt64) -> Bool {
    { client, lastActive in
      guard let entry = entries[client] else { return false }
      return entry.lastActive == lastActive && entry.hasApplied == hasApplied
    }
  }

  /// Ledgers are equal when their entries, limits and ``forgottenThrough`` are (the order of
  /// activity follows from the entries).
  public static func == (left: ClientLedger, right: ClientLedger) -> Bool {
    left.entries == right.entries && left.idleLimit == right.idleLimit
      && left.maximumClients == right.maximumClients
      && left.forgottenThrough == right.forgottenThrough
  }

  private enum CodingKeys: String, CodingKey {
    case entries, idleLimit, maximumClients, forgottenThrough
  }

  /// Decodes the entries, the limits and ``forgottenThrough`` (a ledger encoded without
  /// ``maximumClients`` gets the default; one without ``forgottenThrough`` never forgot a
  /// client).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      idleLimit: try container.decode(UInt64.self, forKey: .idleLimit),
      maximumClients: try container.decodeIfPresent(Int.self, forKey: .maximumClients)
        ?? 100_000,
      restoring: try container.decode([String: Entry].self, forKey: .entries),
      forgottenThrough: try container.decodeIfPresent(UInt64.self, forKey: .forgottenThrough)
        ?? 0)
  }

  /// Encodes the entries, the limits and ``forgottenThrough``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(idleLimit, forKey: .idleLimit)
    try container.encode(maximumClients, forKey: .maximumClients)
    try container.encode(forgottenThrough, forKey: .forgottenThrough)
  }
}

extension ClientLedger.Entry {
  /// The entry of a client the ledger has not seen: no number used yet.
  fileprivate static var unused: Self { Self(lastNumber: 0, lastSequence: 0, lastActive: 0) }

  /// Whether one of the client's actions was applied (else it has only rejections).
  fileprivate var hasApplied: Bool { lastSequence != 0 }

  fileprivate mutating func applied(_ number: UInt64, at sequence: UInt64) {
    lastNumber = number
    lastSequence = sequence
    lastActive = sequence
  }

  /// Records `numbers` rejected with `rejection`: each run of consecutive numbers as one
  /// ``ClientLedger/RejectedRun`` (a single number as a rejection of its own).
  fileprivate mutating func rejected(runsOf numbers: [UInt64], now: UInt64, rejection: Rejection) {
    var start = 0
    let sorted = numbers.sorted()
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      if end == start {
        rejected(sorted[start], now: now, rejection: rejection)
      } else {
        lastNumber = max(lastNumber, sorted[end])
        lastActive = now
        rejectedRuns.append(
          ClientLedger.RejectedRun(numbers: sorted[start]...sorted[end], rejection: rejection))
        if rejectedRuns.count > ClientLedger.rejectedRunsKept { rejectedRuns.removeFirst() }
      }
      start = end + 1
    }
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
