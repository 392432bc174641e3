import Synchronization
import TandemProtocol

/// The follower's protocol (``FollowerProtocol``), shared by the threads that send and the
/// follower's loop, with the receipts its ids name: one lock guards both, taken once per queued
/// action, once per flush and once per input.
final class SharedFollowerProtocol: Sendable {
  /// What the lock guards.
  struct Guarded {
    /// The protocol's state: the join, the replica's position and the numbering.
    var core: FollowerProtocol
    /// The receipt of each action the protocol holds, by id.
    var receipts: [ReceiptID: Receipt] = [:]
    /// Why the shell stopped the follower, once it has.
    var stopReason: FollowerError?

    /// Why the follower stopped, once it has.
    var stopped: FollowerError? {
      stopReason ?? core.stopCause.map(FollowerError.init)
    }
  }

  /// One input's effects, with the receipt of each ``FollowerEffect/settle(_:_:)`` among them,
  /// in their order (taken out of the map with the input, under the same lock).
  struct Step {
    var effects: [FollowerEffect]
    var receipts: [Receipt?] = []
  }

  private let state: Mutex<Guarded>

  init(_ core: FollowerProtocol) {
    state = Mutex(Guarded(core: core))
  }

  /// Queues an action and returns its receipt; fails when the protocol refuses it.
  func queue(tag: String, payload: Frame) throws(FollowerError) -> Receipt {
    let queued = state.withLock { guarded -> Result<Receipt, FollowerError> in
      do throws(OutboxRefusal) {
        let id = try guarded.core.queue(tag: tag, payload: payload)
        let receipt = Receipt()
        guarded.receipts[id] = receipt
        return .success(receipt)
      } catch {
        return .failure(FollowerError(error, stopReason: guarded.stopped))
      }
    }
    return try queued.get()
  }

  /// Feeds the protocol one input.
  func step(_ input: (inout FollowerProtocol) -> [FollowerEffect]) -> Step {
    state.withLock { guarded in
      var step = Step(effects: input(&guarded.core))
      for case .settle(let id, _) in step.effects {
        step.receipts.append(guarded.receipts.removeValue(forKey: id))
      }
      return step
    }
  }

  /// Stops the protocol because the shell stops with `error` (unless it stopped already).
  func stop(because error: FollowerError) -> Step {
    state.withLock { guarded in
      if guarded.stopReason == nil { guarded.stopReason = guarded.stopped ?? error }
      var step = Step(effects: guarded.core.stop())
      for case .settle(let id, _) in step.effects {
        step.receipts.append(guarded.receipts.removeValue(forKey: id))
      }
      return step
    }
  }

  func withLock<Result>(_ body: (inout Guarded) -> Result) -> Result {
    state.withLock { body(&$0) }
  }
}

extension FollowerError {
  /// The error `send` throws for an action the protocol refused; `stopReason` is why the
  /// follower stopped, once it has.
  init(_ refusal: OutboxRefusal, stopReason: FollowerError?) {
    switch refusal {
    case .outboxFull(let capacity): self = .outboxFull(capacity: capacity)
    case .actionTooLarge(let bytes, let limit): self = .actionTooLarge(bytes: bytes, limit: limit)
    case .tagTooLong(let tag, let limit): self = .tagTooLong(tag, limit: limit)
    case .stopped: self = stopReason ?? .stopped
    }
  }

  /// Why a receipt failed; `stopReason` is why the shell stopped the follower.
  init(_ failure: ReceiptFailure, stopReason: FollowerError) {
    switch failure {
    case .rejected(let rejection): self = .rejected(rejection)
    case .outcomeUnknown: self = .outcomeUnknown
    case .historyLost: self = .historyLost
    case .stopped(let cause): self = cause.map(FollowerError.init) ?? stopReason
    }
  }

  /// Why the protocol stopped the follower.
  init(_ cause: FollowerStopCause) {
    switch cause {
    case .refused(let code, let message): self = .refused(code: code, message: message)
    }
  }
}
