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
  private typealias Waiter = CheckedContinuation<Result<UInt64, FollowerError>, Never>

  private struct Status {
    var outcome: Result<UInt64, FollowerError>?
    /// The tasks awaiting ``applied()``, by the number each was given.
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
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
      await withCheckedContinuation { (waiter: Waiter) in
        let ready: Result<UInt64, FollowerError>? = status.withLock { status in
          if let outcome = status.outcome { return outcome }
          // Cancelled before the handler could find this waiter: it never will.
          if Task.isCancelled { return .failure(.waitCancelled) }
          status.waiters[number] = waiter
          return nil
        }
        if let ready { waiter.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = status.withLock { $0.waiters.removeValue(forKey: number) }
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
    let waiters = status.withLock { status -> [Waiter] in
      guard status.outcome == nil else { return [] }
      status.outcome = result
      defer { status.waiters.removeAll() }
      return Array(status.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: result) }
  }
}
