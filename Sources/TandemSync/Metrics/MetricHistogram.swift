import Synchronization

/// A distribution of durations in cumulative buckets of seconds, kept in atomics:
/// ``observe(_:)`` costs a few relaxed atomic adds and never takes a lock.
///
/// ```swift
/// let commit = MetricHistogram(buckets: MetricHistogram.latencyBuckets)
/// let start = ContinuousClock.now
/// try journal.append(...)
/// commit.observe(.now - start)
/// ```
public final class MetricHistogram: Sendable {
  /// The upper bounds of the buckets, in seconds, ascending (`+Inf` is implicit).
  public let buckets: [Double]
  /// The bucket each observation falls into, in nanoseconds (the bounds as whole numbers).
  private let bounds: [Int64]
  private let counts: [Cell]
  private let sumNanoseconds = Atomic<Int64>(0)
  private let total = Atomic<UInt64>(0)

  private final class Cell: Sendable {
    let count = Atomic<UInt64>(0)
  }

  /// Bounds from 50 µs to 10 s, for latencies from a memory operation to a slow disk.
  public static let latencyBuckets: [Double] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
    0.5, 1, 2.5, 10,
  ]

  public init(buckets: [Double] = MetricHistogram.latencyBuckets) {
    precondition(
      !buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 },
      "Tandem: a histogram's buckets must be ascending")
    self.buckets = buckets
    bounds = buckets.map { Int64(($0 * 1e9).rounded()) }
    counts = buckets.map { _ in Cell() }
  }

  /// Counts one observation of `duration`.
  public func observe(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    if let index = bounds.firstIndex(where: { nanoseconds <= $0 }) {
      counts[index].count.add(1, ordering: .relaxed)
    }
    sumNanoseconds.add(nanoseconds, ordering: .relaxed)
    total.add(1, ordering: .relaxed)
  }

  /// The histogram's samples: cumulative `_bucket`s with their `le` label, `_sum` in seconds
  /// and `_count`, each with `labels` first.
  public func samples(labels: [(name: String, value: String)] = []) -> [MetricFamily.Sample] {
    let count = Double(total.load(ordering: .relaxed))
    var cumulative: UInt64 = 0
    var samples: [MetricFamily.Sample] = []
    for (bound, cell) in zip(buckets, counts) {
      cumulative += cell.count.load(ordering: .relaxed)
      samples.append(
        .init(
          suffix: "_bucket", labels: labels + [("le", MetricsExposition.number(bound))],
          value: Double(cumulative)))
    }
    // Read after the buckets: +Inf is never below the last bucket's count.
    samples.append(
      .init(
        suffix: "_bucket", labels: labels + [("le", "+Inf")], value: max(count, Double(cumulative)))
    )
    samples.append(
      .init(
        suffix: "_sum", labels: labels,
        value: Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9))
    samples.append(.init(suffix: "_count", labels: labels, value: max(count, Double(cumulative))))
    return samples
  }
}
