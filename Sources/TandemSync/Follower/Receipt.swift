import Synchronization

/// The answer to ``Follower/send(_:)``: resolves once the leader has applied the action and the
/// local replica shows it (read-your-writes), or fails with the reason it did not.
///
/// ```swift
/// let receipt = try follower.send(AddBookmark(repository: "apple/swift"))
/// let sequence = try await receipt.applied()
/// // follower.store.state now includes the bookmark
/// ```
public final class Receipt: Sendable {
  private enum Status {
    case pending
    case done(Result<UInt64, FollowerError>)
  }

  private let status = Mutex<(Status, [CheckedContinuation<Result<UInt64, FollowerError>, Never>])>(
    (.pending, []))

  init() {}

  /// The sequence at which the action took effect, once the replica shows it.
  public func applied() async throws(FollowerError) -> UInt64 {
    // Settled already (as receipts of a burst of deltas often are): no suspension.
    if let outcome { return try outcome.get() }
    let result = await withCheckedContinuation { continuation in
      let done: Result<UInt64, FollowerError>? = status.withLock { status in
        if case .done(let result) = status.0 { return result }
        status.1.append(continuation)
        return nil
      }
      if let done { continuation.resume(returning: done) }
    }
    return try result.get()
  }

  /// The outcome, if there is one yet.
  public var outcome: Result<UInt64, FollowerError>? {
    status.withLock { status in
      if case .done(let result) = status.0 { return result }
      return nil
    }
  }

  /// Settles the receipt (once; later calls are ignored) and wakes its waiters.
  func settle(_ result: Result<UInt64, FollowerError>) {
    let waiters = status.withLock {
      status -> [CheckedContinuation<Result<UInt64, FollowerError>, Never>] in
      guard case .pending = status.0 else { return [] }
      status.0 = .done(result)
      defer { status.1.removeAll() }
      return status.1
    }
    for waiter in waiters { waiter.resume(returning: result) }
  }
}
