import Synchronization

/// The metrics of one process, or one part of it, as Prometheus scrapes them: collectors that
/// each return some ``MetricFamily`` values when asked, and ``exposition()`` that asks them all.
///
/// A ``Leader`` and a ``Follower`` each have one (`leader.metrics`, `follower.metrics`);
/// an application adds its own collectors, and serves one or more registries at `/metrics`
/// (the `TandemMetrics` module's `MetricsServer`, or any HTTP server of its own):
///
/// ```swift
/// let requests = MetricCounter()
/// registry.addCollector {
///   [.value("app_requests_total", help: "Requests answered.", kind: .counter,
///           Double(requests.value))]
/// }
/// let text = await registry.exposition()
/// ```
///
/// Counting is done by the hot paths' own atomics (``MetricCounter``, ``MetricHistogram``) or
/// plain counters their thread owns; collectors read them only at scrape time.
public final class MetricsRegistry: Sendable {
  /// Returns some metric families, read at scrape time.
  public typealias Collector = @Sendable () async -> [MetricFamily]

  private let collectors = Mutex<[Collector]>([])

  public init() {}

  /// Adds `collector`, asked at every scrape after those added before it.
  public func addCollector(_ collector: @escaping Collector) {
    collectors.withLock { $0.append(collector) }
  }

  /// Every collector's families, in order.
  public func families() async -> [MetricFamily] {
    var families: [MetricFamily] = []
    for collector in collectors.withLock({ $0 }) { families += await collector() }
    return families
  }

  /// The families of `registries`, in the text exposition format.
  public static func exposition(of registries: [MetricsRegistry]) async -> String {
    var families: [MetricFamily] = []
    for registry in registries { families += await registry.families() }
    return MetricsExposition.text(families)
  }

  /// This registry's families in the text exposition format.
  public func exposition() async -> String {
    await Self.exposition(of: [self])
  }
}
