import Synchronization
import TandemProtocol

/// What the store's drainer and the leader's I/O loop share: the sequence, the exactly-once
/// ledger, and what was recorded but not yet committed and published.
///
/// The drainer records each reduction here (``record(origin:tag:patch:state:)``) in the store's
/// total order. When each action is its own delta it records the patch and the new state (the
/// store keeps the old state for the diff anyway, so holding the new one costs no copy); when
/// actions are grouped it records neither, and the loop reads the store's state inside its
/// drain, so the store changes its state in place between two publications. The loop takes what
/// was recorded (``takeUnpublished(current:)``), commits and publishes it. Both sides hold the
/// lock only for bookkeeping, never while encoding, writing or sending.
final class LeaderHistory<State: Sendable>: Sendable {
  struct Contents {
    var epoch: Epoch
    /// The sequence of the newest recorded state.
    var sequence: UInt64
    /// The newest recorded state (the initial one until the drainer records states).
    var state: State
    var ledger: ClientLedger
    /// Actions recorded since the loop last took a batch, in order: they took effect at the
    /// sequences just before and at ``sequence``.
    var unpublished: [AppliedAction] = []
    /// The patch of each unpublished action, when actions are diffed one by one.
    var unpublishedPatches: [Frame] = []
    /// Clients whose ledger entries changed since the loop last took a batch.
    var changedClients: Set<String> = []

    /// Records one reduction: the next sequence, the action and, for a follower's action, the
    /// ledger entry. Returns whether it is the first unpublished action.
    mutating func record(origin: Origin, tag: String) -> Bool {
      sequence += 1
      unpublished.append(AppliedAction(origin: origin, tag: tag))
      if !origin.isLeader {
        ledger.recordApplied(
          client: origin.client, number: origin.number, sequence: sequence, key: origin.key)
        changedClients.insert(origin.client)
      }
      return unpublished.count == 1
    }
  }

  /// What the loop takes to commit and publish: the actions, and the state and sequence after
  /// the last of them, with the ledger entries the batch changed, the clients it forgot and the
  /// ledger's ``ClientLedger/forgottenThrough`` after it.
  struct Batch {
    var epoch: Epoch
    var actions: [AppliedAction]
    /// Each action's patch, when they were diffed one by one; else empty.
    var patches: [Frame]
    var sequence: UInt64
    var state: State
    var changedEntries: [String: ClientLedger.Entry]
    var forgotten: [String]
    var forgottenThrough: UInt64
  }

  /// The leader's epoch, fixed for its lifetime (read without the lock).
  let epoch: Epoch
  private let contents: Mutex<Contents>

  init(epoch: Epoch, sequence: UInt64, state: State, ledger: ClientLedger) {
    self.epoch = epoch
    contents = Mutex(Contents(epoch: epoch, sequence: sequence, state: state, ledger: ledger))
  }

  /// Records one reduction diffed as it was applied (see ``Contents/record(origin:tag:)``), with
  /// its patch and the new state. Returns whether it is the first unpublished action (so the
  /// caller wakes the loop once per batch).
  ///
  /// (Two methods rather than one taking an optional `(patch, state)` tuple: such a tuple's
  /// metadata, which depends on `State`, would be looked up at run time on every action.)
  func record(origin: Origin, tag: String, patch: Frame, state: State) -> Bool {
    contents.withLock { contents in
      contents.unpublishedPatches.append(patch)
      contents.state = state
      return contents.record(origin: origin, tag: tag)
    }
  }

  /// Records one reduction the loop diffs with the rest of its batch (see
  /// ``Contents/record(origin:tag:)``). Returns whether it is the first unpublished action.
  func record(origin: Origin, tag: String) -> Bool {
    contents.withLock { $0.record(origin: origin, tag: tag) }
  }

  /// Records that a follower's action was refused with `rejection`: its number is used up.
  func recordRejected(_ origin: Origin, _ rejection: Rejection) {
    contents.withLock { contents in
      contents.ledger.recordRejected(
        client: origin.client, number: origin.number, now: contents.sequence,
        rejection: rejection, key: origin.key)
      contents.changedClients.insert(origin.client)
    }
  }

  /// Answers a `HELLO` of `client` from a process handed `generation` (see
  /// ``ClientLedger/hello(client:generation:now:fresh:key:)``); a new owner, or a client id
  /// newly bound to `key`, is journaled with the next batch.
  func hello(client: String, generation: UInt64, key: String) -> ClientLedger.Greeting {
    let fresh = UInt64.random(in: 1...(1 << 32))
    return contents.withLock { contents in
      let before = contents.ledger.entries[client]
      let greeting = contents.ledger.hello(
        client: client, generation: generation, now: contents.sequence, fresh: fresh, key: key)
      if contents.ledger.entries[client] != before {
        contents.changedClients.insert(client)
      }
      return greeting
    }
  }

  /// The verdict for a forwarded action, once its sender is known to own its client id (see
  /// ``ClientLedger/judge(_:now:key:)``), or the owner's generation when another process took
  /// the id over, or the owner's key when another key holds it. One lock for all, on the path of
  /// every action.
  func judge(_ forwarded: ForwardedAction, key: String) -> ClientLedger.Judgement {
    contents.withLock { $0.ledger.judge(forwarded, now: $0.sequence, key: key) }
  }

  /// The key `client` is bound to when it is another than `key` (no lock without a key).
  func owner(of client: String, otherThan key: String) -> String? {
    guard !key.isEmpty else { return nil }
    return contents.withLock { $0.ledger.owner(of: client, otherThan: key) }
  }

  /// The client's last number and the ledger's forgotten-through, for its `WELCOME`.
  func welcomeFacts(of client: String) -> (lastNumber: UInt64, forgottenThrough: UInt64) {
    contents.withLock { ($0.ledger.lastNumber(of: client), $0.ledger.forgottenThrough) }
  }

  /// Takes every recorded, unpublished action with the state after them: `current`, the store's
  /// state read inside its drain, when the drainer does not record states; else the recorded one.
  func takeUnpublished(current: State? = nil) -> Batch {
    contents.withLock { contents in
      let actions = contents.unpublished
      let patches = contents.unpublishedPatches
      contents.unpublished.removeAll(keepingCapacity: true)
      contents.unpublishedPatches.removeAll(keepingCapacity: true)
      let forgotten = contents.ledger.evict(now: contents.sequence)
      var changed: [String: ClientLedger.Entry] = [:]
      for client in contents.changedClients {
        if let entry = contents.ledger.entries[client] { changed[client] = entry }
      }
      contents.changedClients.removeAll(keepingCapacity: true)
      return Batch(
        epoch: contents.epoch, actions: actions, patches: patches, sequence: contents.sequence,
        state: current ?? contents.state, changedEntries: changed, forgotten: forgotten,
        forgottenThrough: contents.ledger.forgottenThrough)
    }
  }

  /// Puts the history back to a committed point (`sequence`, `state`, `ledger`) after `batch`
  /// failed to commit: the batch's actions are dropped, and every action number it used stays
  /// used, its followers' applied actions now rejected with `rejection`, so numbering goes on
  /// and a resent action gets the rejection.
  func rollBack(
    to sequence: UInt64, state: State, ledger: ClientLedger, batch: Batch, rejection: Rejection
  ) {
    var undone: [String: [UInt64]] = [:]
    for action in batch.actions where !action.origin.isLeader {
      undone[action.origin.client, default: []].append(action.origin.number)
    }
    contents.withLock { contents in
      contents.sequence = sequence
      contents.state = state
      contents.ledger = ledger
      contents.unpublished.removeAll()
      contents.unpublishedPatches.removeAll()
      contents.changedClients.removeAll()
      for (client, after) in batch.changedEntries {
        contents.ledger.revert(
          client: client, before: ledger.entries[client], after: after,
          undone: undone[client] ?? [], rejection: rejection, now: sequence)
        contents.changedClients.insert(client)
      }
    }
  }

  /// Reads the contents under the lock.
  func read<Result>(_ body: (borrowing Contents) -> Result) -> Result {
    contents.withLock { body($0) }
  }
}

/// The shared ledger is the one ``LeaderProtocol`` judges against (each operation one lock).
extension LeaderHistory: LeaderLedger {}
