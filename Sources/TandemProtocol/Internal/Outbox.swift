/// A follower's unacknowledged actions, numbered 1, 2, 3... in the order they were sent, kept
/// until the leader answers so they can be sent again after a reconnect.
///
/// Rules (the protocol spec's "Dispatch"): send in number order; after a reconnect, or no answer
/// for a while, send every unanswered action again from the oldest; after an `out-of-order`
/// answer, ask the leader where the numbering stands (`HELLO` again) and send nothing until its
/// `WELCOME` realigns it; a bounded capacity, past which nothing is queued.
///
/// It holds no receipts: each action has a ``ReceiptID``, which the methods that answer,
/// settle or fail actions return, for the follower's I/O shell to settle its receipt.
package struct Outbox {
  /// One unanswered action.
  package struct Entry: Equatable {
    package var number: UInt64
    package var tag: String
    package var payload: Frame
    package var receipt: ReceiptID
    /// When it was last sent; nil while waiting to be sent.
    var sentAt: ContinuousClock.Instant?
    /// Whether it was last sent with `DISPATCH-QUIET`, which gets no `ACK` once applied.
    var sentQuietly = false
    /// Whether it was ever sent under its number: the leader may have applied it, answered or
    /// not.
    var everSent = false
    /// A sequence of the history the numbering is aligned with that the leader had reached when
    /// the action was first sent under its number (the replica's then, or the last `WELCOME`'s
    /// if higher; 0 once the numbering followed the replica into another history): the leader
    /// applies it, if at all, at a later sequence.
    var firstSentAfter: UInt64 = 0
  }

  package let capacity: Int
  /// The number the next action gets.
  package private(set) var nextNumber: UInt64 = 1
  /// The id the next action's receipt gets.
  private var nextReceipt: UInt64 = 1
  /// What the leader's last `WELCOME` said it accepts (the protocol's least, before the first).
  package var leaderLimits = ProtocolLimits.standard
  /// Unanswered actions, in number order.
  package private(set) var entries: [Entry] = []
  /// How many entries, from the first, have been sent: sends go in order and a rewind resends
  /// from the first, so the sent entries are always a prefix.
  private var sentCount = 0
  /// Whether the numbering has been aligned with the leader's ledger at a `WELCOME`; until then
  /// numbers are provisional and nothing is sent.
  package private(set) var isAligned = false
  /// When the follower said `HELLO` again on its open connection to realign (see
  /// ``realign(now:)``); nil when no realignment is waiting for its `WELCOME`.
  package private(set) var realigningSince: ContinuousClock.Instant?
  /// The epoch of the last `WELCOME`, or of a snapshot of another history since (see
  /// ``followReplica(into:at:)``): the history the actions sent since then went to.
  private var alignedEpoch: Epoch?
  /// The leader's sequence in that `WELCOME` or snapshot: an action sent since then takes
  /// effect, if at all, after it.
  private var alignedSequence: UInt64 = 0

  /// Whether the follower stopped (see ``close()``): nothing is queued after that.
  package private(set) var isClosed = false

  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// Queues an action; returns its receipt's id, or refuses when the action exceeds the
  /// leader's limits, the outbox is full, or the follower stopped.
  package mutating func enqueue(tag: String, payload: Frame) throws(OutboxRefusal) -> ReceiptID {
    if isClosed { throw .stopped }
    // The leader would refuse more, at every resend, holding up every action after it.
    guard UInt64(payload.count) <= leaderLimits.maximumPayloadBytes else {
      throw .actionTooLarge(
        bytes: payload.count, limit: Int(clamping: leaderLimits.maximumPayloadBytes))
    }
    guard UInt64(tag.utf8.count) <= leaderLimits.maximumTagBytes else {
      throw .tagTooLong(tag, limit: Int(clamping: leaderLimits.maximumTagBytes))
    }
    guard entries.count < capacity else { throw .outboxFull(capacity: capacity) }
    let receipt = ReceiptID(rawValue: nextReceipt)
    nextReceipt += 1
    entries.append(Entry(number: nextNumber, tag: tag, payload: payload, receipt: receipt))
    nextNumber += 1
    return receipt
  }

  /// The actions waiting to be sent, marked as sent at `now` (and whether `quietly`) while the
  /// `replica` shows the given epoch and sequence.
  package mutating func takeUnsent(
    now: ContinuousClock.Instant, replica: (epoch: Epoch?, sequence: UInt64), client: String,
    generation: UInt64 = 0, quietly: Bool
  ) -> [ForwardedAction] {
    guard isAligned, realigningSince == nil else { return [] }
    let sentAfter =
      replica.epoch == alignedEpoch ? max(replica.sequence, alignedSequence) : alignedSequence
    var actions: [ForwardedAction] = []
    actions.reserveCapacity(entries.count - sentCount)
    for index in sentCount..<entries.count {
      entries[index].sentAt = now
      entries[index].sentQuietly = quietly
      if !entries[index].everSent {
        entries[index].everSent = true
        entries[index].firstSentAfter = sentAfter
      }
      let entry = entries[index]
      actions.append(
        ForwardedAction(
          client: client, number: entry.number, generation: generation, tag: entry.tag,
          payload: entry.payload))
    }
    sentCount = entries.count
    return actions
  }

  /// Removes and returns the entry for `number` once the leader answered it.
  package mutating func answered(_ number: UInt64) -> Entry? {
    guard let index = entries.firstIndex(where: { $0.number == number }) else { return nil }
    return removeEntry(at: index)
  }

  /// Removes and returns the entry numbered `number` when a delta of `epoch` shows it applied at
  /// `sequence`. Only a delta after the entry was sent under its number can: an earlier one
  /// (still on its way when a `WELCOME` renumbered the actions) names another action by it.
  package mutating func applied(_ number: UInt64, epoch: Epoch, sequence: UInt64) -> Entry? {
    guard epoch == alignedEpoch,
      let index = entries.firstIndex(where: { $0.number == number }),
      entries[index].everSent, sequence > entries[index].firstSentAfter
    else { return nil }
    return removeEntry(at: index)
  }

  private mutating func removeEntry(at index: Int) -> Entry {
    if index < sentCount { sentCount -= 1 }
    return entries.remove(at: index)
  }

  /// Follows the replica into the history of `epoch`, whose snapshot at `sequence` replaced it,
  /// when the numbering is aligned with another: a leader restarted behind the open connection,
  /// which sent no `WELCOME` (none comes while its ledger expects the follower's next number).
  /// It answered after the last `WELCOME`, so it got actions of the current numbering only: its
  /// deltas name them rightly, one sent before the snapshot (it may have gone to that leader)
  /// at any sequence, one sent from now on after `sequence`.
  package mutating func followReplica(into epoch: Epoch, at sequence: UInt64) {
    guard isAligned, epoch != alignedEpoch else { return }
    alignedEpoch = epoch
    alignedSequence = sequence
    answerableAtAnySequence()
  }

  /// Lets any delta of the history just aligned with settle the actions already sent: their
  /// first sends' sequences belong to the history before, and that history's numbers name the
  /// same actions (the numbering was not changed).
  private mutating func answerableAtAnySequence() {
    for index in entries.indices where entries[index].everSent {
      entries[index].firstSentAfter = 0
    }
  }

  /// Marks every entry unsent, so all are sent again from the oldest.
  package mutating func rewind() {
    unsend(from: 0)
  }

  /// Marks the entries from `number` on unsent (a send that could not be queued), keeping the
  /// ones before it sent.
  package mutating func unsend(from number: UInt64) {
    let first = entries.firstIndex { $0.number >= number } ?? entries.count
    for index in first..<entries.count { entries[index].sentAt = nil }
    sentCount = min(sentCount, first)
  }

  /// Starts a realignment after an `out-of-order` answer: nothing is sent
  /// until the `WELCOME` that answers a new `HELLO` on the same connection says which number the
  /// leader expects. The leader answers requests on one connection in order, so every answer
  /// that arrives before that `WELCOME` is to a send from before the `HELLO`. Returns whether
  /// the caller must send the `HELLO` (false while one is already waiting for its `WELCOME`).
  package mutating func realign(now: ContinuousClock.Instant) -> Bool {
    guard realigningSince == nil else { return false }
    realigningSince = now
    rewind()
    return true
  }

  /// The connection is gone: everything unanswered is sent again on the next one, and a
  /// realignment waiting on this one is over (the next join's `WELCOME` aligns).
  package mutating func connectionClosed() {
    rewind()
    realigningSince = nil
  }

  /// Rewinds when an unanswered action was sent quietly: after a snapshot, whose state may hold
  /// actions whose deltas the follower never saw. Sent again, an applied one is a duplicate,
  /// which the leader always answers. Returns whether it rewound.
  package mutating func rewindIfSentQuietly() -> Bool {
    guard entries[..<sentCount].contains(where: \.sentQuietly) else { return false }
    rewind()
    return true
  }

  /// Whether a realignment has waited longer than `timeout` for its `WELCOME`.
  package func realignmentTimedOut(after timeout: Duration, now: ContinuousClock.Instant) -> Bool {
    guard let since = realigningSince else { return false }
    return now - since > timeout
  }

  /// Rewinds when the oldest sent action has had no answer for `timeout`.
  package mutating func rewindIfUnanswered(
    for timeout: Duration, now: ContinuousClock.Instant
  ) -> Bool {
    guard let oldest = entries.first?.sentAt, now - oldest > timeout else { return false }
    rewind()
    return true
  }

  /// Aligns the numbering with the leader's ledger at the `WELCOME` of `epoch` and `sequence`
  /// (of a join or a realignment). At the first `WELCOME` (a stable client id continuing its
  /// numbering from an earlier process), and whenever the leader's last number for this client
  /// is below the oldest unanswered one − 1 (the leader has forgotten the client: a new history,
  /// or a client evicted), the unanswered actions are renumbered from its last number + 1, and
  /// everything unanswered is sent again.
  ///
  /// Except when the leader does not know the client within the history the actions were sent
  /// to (the epoch is unchanged): an action sent earlier may have been applied before the leader
  /// forgot the client, its answer lost with a connection or dropped at a full queue, or not
  /// given (a quiet send whose delta the replica has not shown yet), and sent again it would be
  /// applied a second time. That is so for an action first sent while the replica was below
  /// `forgottenThrough` (the latest activity of any client the ledger forgot,
  /// ``ClientLedger/forgottenThrough``): applied, it would have kept the client in the ledger
  /// past that sequence. Those are removed and returned, for their receipts to fail; the others
  /// are renumbered and sent again.
  ///
  /// A `WELCOME` of another history that renumbers nothing (its ledger expects the oldest
  /// unanswered number) leaves the numbers as they are, and any of its deltas may settle an
  /// action sent before it, as after ``followReplica(into:at:)``.
  ///
  /// A `WELCOME` that `renewed` this process's generation (the leader's ledger did not know the
  /// one it said `HELLO` with: it was lost with a journal's tail, or handed in another history)
  /// whose last number is at or above the oldest unanswered one: the numbers up to it were
  /// used in this history by a process that owned the id under another generation, so an
  /// answer to them says nothing about this process's actions. Those of them ever sent are
  /// removed and returned (in doubt: the leader would answer them as another's duplicates);
  /// the rest are renumbered from the last number + 1, as if the leader had never seen them.
  package mutating func welcome(
    lastNumber: UInt64, forgottenThrough: UInt64, epoch: Epoch, sequence: UInt64,
    renewed: Bool = false
  ) -> [Entry] {
    rewind()
    let first = entries.first?.number ?? nextNumber
    let wasAligned = isAligned
    let sameHistory = alignedEpoch == epoch
    isAligned = true
    realigningSince = nil
    alignedEpoch = epoch
    alignedSequence = sequence
    let mayBeForgotten: (Entry) -> Bool = { $0.everSent && $0.firstSentAfter < forgottenThrough }
    var outcomeUnknown: [Entry] = []
    // Also across epochs: a new epoch may continue a prefix of the old history (a journal that
    // lost its tail keeps its ledger and its sequences), whose forgotten-through then means
    // what it says; a leader that started a history afresh forgot nothing yet (0), and one that
    // forgot clients since only fails receipts that could have been sent again.
    if wasAligned && (lastNumber + 1 < first || lastNumber == 0) {
      outcomeUnknown = entries.filter(mayBeForgotten)
      entries.removeAll(where: mayBeForgotten)
    }
    let numbersTaken = renewed && wasAligned && lastNumber >= first
    if numbersTaken {
      let answeredAsAnothers: (Entry) -> Bool = { $0.everSent && $0.number <= lastNumber }
      outcomeUnknown += entries.filter(answeredAsAnothers)
      entries.removeAll(where: answeredAsAnothers)
    }
    guard !wasAligned || lastNumber + 1 < first || numbersTaken || !outcomeUnknown.isEmpty else {
      nextNumber = max(nextNumber, lastNumber + 1)
      if !sameHistory { answerableAtAnySequence() }
      return []
    }
    var number = lastNumber + 1
    for index in entries.indices {
      entries[index].number = number
      entries[index].everSent = false
      entries[index].firstSentAfter = 0
      number += 1
    }
    nextNumber = number
    return outcomeUnknown
  }

  /// Removes the entries whose actions the `deltas` of `epoch`, applied to the replica, show
  /// applied: this `client`'s actions of the `generation` this process was handed (not another
  /// process's that took the id over, whose numbers may be the same), each after it was sent
  /// under its number (see ``applied(_:epoch:sequence:)``). Returns their receipts, each with
  /// the sequence of its action.
  package mutating func applied(
    in deltas: ArraySlice<Delta>, epoch: Epoch, client: String, generation: UInt64
  ) -> [(receipt: ReceiptID, sequence: UInt64)] {
    var settled: [(receipt: ReceiptID, sequence: UInt64)] = []
    guard !entries.isEmpty else { return settled }
    for delta in deltas {
      for (sequence, action) in delta.sequencedActions
      where action.origin.client == client && action.origin.generation == generation {
        if let entry = applied(action.origin.number, epoch: epoch, sequence: sequence) {
          settled.append((entry.receipt, sequence))
        }
      }
    }
    return settled
  }

  /// Empties the outbox and refuses anything queued later (the follower stopped); returns the
  /// receipts of the unanswered actions, which fail with the reason it stopped.
  package mutating func close() -> [ReceiptID] {
    isClosed = true
    defer { entries.removeAll() }
    return entries.map(\.receipt)
  }
}
