/// Repeated, timed runs of one workload: a warm-up first, then `runs` timed runs whose median
/// is reported, as swift-nio's benchmarks do. Benchmarks print figures; they never assert.
///
/// ```swift
/// let timer = BenchmarkClock(runs: 5)
/// let perSecond = timer.rate(operations: 100_000) { for _ in 0..<100_000 { store.dispatch(Tick()) } }
/// print(perSecond.median)
/// ```
struct BenchmarkClock {
  /// How many timed runs; the median of them is the figure.
  var runs: Int
  /// How many untimed runs come first.
  var warmups: Int = 1

  /// Seconds taken by each timed run of `body`.
  func seconds(_ body: () throws -> Void) rethrows -> Samples {
    let clock = ContinuousClock()
    for _ in 0..<warmups { try body() }
    var values: [Double] = []
    for _ in 0..<runs {
      let elapsed = try clock.measure(body)
      values.append(elapsed.seconds)
    }
    return Samples(values)
  }

  /// Operations per second of each timed run, when one run of `body` performs `operations`.
  func rate(operations: Int, _ body: () throws -> Void) rethrows -> Samples {
    let times = try seconds(body)
    return Samples(times.values.map { Double(operations) / $0 })
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}

/// The figures of repeated runs, with order statistics.
struct Samples {
  /// Every measured value, in the order measured.
  var values: [Double]

  init(_ values: [Double]) {
    precondition(!values.isEmpty, "Samples need at least one value")
    self.values = values
  }

  /// The middle value (the mean of the two middle values for an even count).
  var median: Double { percentile(50) }

  /// The value below which `percent` of the values lie (nearest rank).
  func percentile(_ percent: Double) -> Double {
    let sorted = values.sorted()
    let rank = Int((percent / 100 * Double(sorted.count - 1)).rounded())
    if percent == 50, sorted.count % 2 == 0 {
      return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}
