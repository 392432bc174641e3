import TandemSync

/// The worker's load metrics (`github_browser_worker_...`): loads by outcome and their
/// durations, counted with atomics.
final class WorkerMetrics: Sendable {
  /// The outcomes: the load got an answer, failed, or ended without one (released).
  static let outcomes = ["succeeded", "failed", "released"]
  private let counts = Dictionary(uniqueKeysWithValues: outcomes.map { ($0, MetricCounter()) })
  private let duration = MetricHistogram()

  /// Counts a load of `outcome` that took `elapsed` against the API.
  func performed(_ outcome: String, in elapsed: Duration) {
    counts[outcome]?.increment()
    duration.observe(elapsed)
  }

  /// The families, for a registry's collector.
  func families() -> [MetricFamily] {
    [
      .values(
        "github_browser_worker_loads_total", help: "Loads performed against the API, by outcome.",
        kind: .counter,
        Self.outcomes.map { ([("outcome", $0)], Double(counts[$0]?.value ?? 0)) }),
      MetricFamily(
        name: "github_browser_worker_load_duration_seconds",
        help: "Time one load took against the API.", kind: .histogram,
        samples: duration.samples()),
    ]
  }
}
