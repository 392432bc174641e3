import Synchronization

/// A one-slot channel from a store's draining thread to one consumer task: a value sent while the
/// consumer is busy replaces the one waiting, so a slow consumer gets the latest value and memory
/// stays bounded whatever the rate of dispatches.
final class LatestValueChannel<Value: Sendable>: Sendable {
  private struct Slot {
    /// The value sent and not yet taken.
    var pending: Value?
    /// The consumer waiting for a value.
    var waiter: CheckedContinuation<Value?, Never>?
    /// Set by ``finish()``: no value is accepted after it, and the consumer gets `nil` once the
    /// pending value is taken.
    var finished = false
    /// Set when the consumer's task is cancelled: it gets `nil` at once.
    var cancelled = false
  }

  private let slot = Mutex(Slot())

  /// Offers `value` to the consumer: hands it over if the consumer waits, otherwise replaces the
  /// pending value.
  func send(_ value: Value) {
    let waiter: CheckedContinuation<Value?, Never>? = slot.withLock { slot in
      guard !slot.finished else { return nil }
      if let waiter = slot.waiter {
        slot.waiter = nil
        return waiter
      }
      slot.pending = value
      return nil
    }
    waiter?.resume(returning: value)
  }

  /// Ends the channel: the consumer gets the pending value, if any, then `nil`.
  func finish() {
    let waiter: CheckedContinuation<Value?, Never>? = slot.withLock { slot in
      slot.finished = true
      defer { slot.waiter = nil }
      return slot.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Waits for the next value; `nil` once the channel is finished or the calling task is
  /// cancelled.
  func receive(isolation: isolated (any Actor)? = #isolation) async -> Value? {
    await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: isolation) {
        (continuation: CheckedContinuation<Value?, Never>) in
        let ready: Value?? = slot.withLock { slot in
          if slot.cancelled { return .some(nil) }
          if let value = slot.pending.take() { return .some(value) }
          if slot.finished { return .some(nil) }
          slot.waiter = continuation
          return .none
        }
        if case .some(let value) = ready {
          continuation.resume(returning: value)
        }
      }
    } onCancel: {
      let waiter: CheckedContinuation<Value?, Never>? = slot.withLock { slot in
        slot.cancelled = true
        defer { slot.waiter = nil }
        return slot.waiter
      }
      waiter?.resume(returning: nil)
    }
  }
}

/// Finishes a channel when it is released.
///
/// The store's subscription chain holds it: when the store is deallocated (or drops the
/// subscription), the chain is released and the consumer's loop ends.
final class ChannelCloser<Value: Sendable>: Sendable {
  private let channel: LatestValueChannel<Value>

  init(_ channel: LatestValueChannel<Value>) {
    self.channel = channel
  }

  deinit {
    channel.finish()
  }
}

/// The store subscriber that feeds a channel.
final class ChannelSubscriber<Value: Sendable>: StoreSubscriber, Sendable {
  let channel: LatestValueChannel<Value>

  init(_ channel: LatestValueChannel<Value>) {
    self.channel = channel
  }

  func newState(state: Value) {
    channel.send(state)
  }
}
