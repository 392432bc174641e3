import Synchronization
import TandemProtocol

/// The answer to ``Follower/send(_:)``: resolves once the leader has applied the action and the
/// local replica shows it (read-your-writes), or fails with the reason it did not.
///
/// ```swift
/// let receipt = try follower.send(AddBookmark(repository: "apple/swift"))
/// let sequence = try await receipt.applied()
/// // follower.store.state now includes the bookmark
/// ```
public final class Receipt: Sendable {
  /// A task awaiting ``applied()``. Unsafe rather than checked: each is resumed exactly once,
  /// by whoever takes it out of ``Status`` under the lock, and a checked one costs an
  /// allocation per wait, on the path of every round trip.
  private typealias Waiter = UnsafeContinuation<Result<UInt64, FollowerError>, Never>

  private struct Status {
    var outcome: Result<UInt64, FollowerError>?
    /// The first task awaiting ``applied()`` (usually the only one), with the number it was
    /// given; held without a dictionary.
    var first: (number: Int, waiter: Waiter)?
    /// The other tasks awaiting ``applied()``, by the number each was given.
    var others: [Int: Waiter] = [:]
    var nextWaiter = 0

    /// Takes the waiter given `number` out, if it still waits.
    mutating func removeWaiter(_ number: Int) -> Waiter? {
      if let first, first.number == number {
        self.first = nil
        return first.waiter
      }
      return others.removeValue(forKey: number)
    }
  }

  private let status = Mutex(Status())

  /// When the action was sent (for the send-to-applied latency).
  let sentAt = ContinuousClock.now

  init() {}

  /// The sequence at which the action took effect, once the replica shows it.
  ///
  /// If the waiting task is cancelled first, this throws ``FollowerError/waitCancelled``: only
  /// the wait ends, the action may still take effect, and the receipt still settles.
  public func applied() async throws(FollowerError) -> UInt64 {
    // Settled already (as receipts of a burst of deltas often are): no suspension.
    if let outcome { return try outcome.get() }
    let number = status.withLock { status in
      defer { status.nextWaiter += 1 }
      return status.nextWaiter
    }
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: Waiter) in
        let ready: Result<UInt64, FollowerError>? = status.withLock { status in
          if let outcome = status.outcome { return outcome }
          // Cancelled before the handler could find this waiter: it never will.
          if Task.isCancelled { return .failure(.waitCancelled) }
          if status.first == nil {
            status.first = (number, waiter)
          } else {
            status.others[number] = waiter
          }
          return nil
        }
        if let ready { waiter.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = status.withLock { $0.removeWaiter(number) }
      waiter?.resume(returning: .failure(.waitCancelled))
    }
    return try result.get()
  }

  /// The outcome, if there is one yet.
  public var outcome: Result<UInt64, FollowerError>? {
    status.withLock { $0.outcome }
  }

  /// Settles the receipt (once; later calls are ignored) and wakes its waiters.
  func settle(_ result: Result<UInt64, FollowerError>) {
    let (first, others) = status.withLock { status -> (Waiter?, [Int: Waiter]) in
      guard status.outcome == nil else { return (nil, [:]) }
      status.outcome = result
      defer {
        status.first = nil
        status.others = [:]
      }
      return (status.first?.waiter, status.others)
    }
    first?.resume(returning: result)
    for waiter in others.values { waiter.resume(returning: result) }
  }
}
