import Synchronization

/// A count that only goes up, kept in an atomic: ``increment(by:)`` costs one relaxed atomic
/// add and never takes a lock, so it belongs on a hot path.
public final class MetricCounter: Sendable {
  private let count = Atomic<UInt64>(0)

  public init() {}

  /// Adds `amount`.
  public func increment(by amount: UInt64 = 1) {
    count.add(amount, ordering: .relaxed)
  }

  /// The count so far.
  public var value: UInt64 { count.load(ordering: .relaxed) }
}
