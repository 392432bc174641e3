import Synchronization
import TandemProtocol

/// The outbox, shared by the threads that send and the follower's loop, with the receipts its
/// actions' ids name: one lock guards both, taken once per queued action and once per flush.
final class FollowerOutbox: Sendable {
  /// What the lock guards.
  struct Guarded {
    /// The numbering and the unanswered actions (the protocol's rules, without receipts).
    var outbox: Outbox
    /// The receipt of each action in ``outbox``, by id.
    var receipts: [ReceiptID: Receipt] = [:]
    /// Why the follower stopped, once it has.
    var stopReason: FollowerError?

    /// Removes and returns the receipts `ids` name.
    mutating func take(_ ids: [ReceiptID]) -> [Receipt] {
      ids.compactMap { receipts.removeValue(forKey: $0) }
    }

    /// Removes the action numbered `number`, which the leader answered, and returns its
    /// receipt (nil if the outbox holds no such action).
    mutating func answered(_ number: UInt64) -> Receipt? {
      guard let entry = outbox.answered(number) else { return nil }
      return receipts.removeValue(forKey: entry.receipt)
    }
  }

  private let state: Mutex<Guarded>

  init(capacity: Int) {
    state = Mutex(Guarded(outbox: Outbox(capacity: capacity)))
  }

  /// Queues an action and returns its receipt; fails when the outbox refuses it.
  func enqueue(tag: String, payload: Frame) throws(FollowerError) -> Receipt {
    let queued = state.withLock { guarded -> Result<Receipt, FollowerError> in
      do throws(OutboxRefusal) {
        let id = try guarded.outbox.enqueue(tag: tag, payload: payload)
        let receipt = Receipt()
        guarded.receipts[id] = receipt
        return .success(receipt)
      } catch {
        return .failure(FollowerError(error, stopReason: guarded.stopReason))
      }
    }
    return try queued.get()
  }

  /// Closes the outbox because the follower stopped with `error`; returns the receipts of the
  /// actions it held, for the caller to fail.
  func close(because error: FollowerError) -> [Receipt] {
    state.withLock { guarded in
      guarded.stopReason = error
      return guarded.take(guarded.outbox.close())
    }
  }

  func withLock<Result>(_ body: (inout Guarded) -> Result) -> Result {
    state.withLock { body(&$0) }
  }
}

extension FollowerError {
  /// The error `send` throws for an action the outbox refused; `stopReason` is why the
  /// follower stopped, once it has.
  init(_ refusal: OutboxRefusal, stopReason: FollowerError?) {
    switch refusal {
    case .outboxFull(let capacity): self = .outboxFull(capacity: capacity)
    case .actionTooLarge(let bytes, let limit): self = .actionTooLarge(bytes: bytes, limit: limit)
    case .tagTooLong(let tag, let limit): self = .tagTooLong(tag, limit: limit)
    case .stopped: self = stopReason ?? .stopped
    }
  }
}
