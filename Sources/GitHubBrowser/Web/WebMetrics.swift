import MicroHTTP
import Synchronization
import TandemSync

/// The web front end's request metrics (`github_browser_web_...`): requests by status and
/// their durations, counted with atomics around every handler.
final class WebMetrics: Sendable {
  /// The statuses counted one by one; any other is counted as `other`.
  private static let statuses = [200, 204, 304, 400, 404, 405, 409, 413, 429, 500, 502, 503, 504]
  private let byStatus: [Int: MetricCounter]
  private let other = MetricCounter()
  private let failed = MetricCounter()
  let duration = MetricHistogram()

  init() {
    byStatus = Dictionary(uniqueKeysWithValues: Self.statuses.map { ($0, MetricCounter()) })
  }

  /// `handler`, counting each request's status and duration (a thrown error as its
  /// ``HTTPError`` status, or 500).
  func counting(_ handler: @escaping HTTPHandler) -> HTTPHandler {
    { [self] request in
      let start = ContinuousClock.now
      defer { duration.observe(.now - start) }
      do {
        let response = try await handler(request)
        (byStatus[response.status] ?? other).increment()
        return response
      } catch {
        (byStatus[(error as? HTTPError)?.status ?? 500] ?? other).increment()
        throw error
      }
    }
  }

  /// The families, for a registry's collector.
  func families() -> [MetricFamily] {
    let counts =
      byStatus.sorted { $0.key < $1.key }.map {
        ([("status", String($0.key))], Double($0.value.value))
      }
      + [([("status", "other")], Double(other.value))]
    return [
      .values(
        "github_browser_web_requests_total", help: "HTTP requests answered, by status.",
        kind: .counter, counts),
      MetricFamily(
        name: "github_browser_web_request_duration_seconds",
        help: "Time to answer an HTTP request (an event stream: until its first byte).",
        kind: .histogram, samples: duration.samples()),
    ]
  }
}
