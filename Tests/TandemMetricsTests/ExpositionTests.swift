import Foundation
import Tandem
import TandemMetrics
import TandemSync
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("The Prometheus text exposition")
struct ExpositionTests {
  @Test func familiesAreWrittenWithHelpTypeAndEscapedLabels() {
    let text = MetricsExposition.text([
      .values(
        "app_requests_total", help: "Requests\\answered\nby status.", kind: .counter,
        [([("status", "200")], 3), ([("path", "/a \"b\"\n")], 1.5)])
    ])
    #expect(
      text == """
        # HELP app_requests_total Requests\\\\answered\\nby status.
        # TYPE app_requests_total counter
        app_requests_total{status="200"} 3
        app_requests_total{path="/a \\"b\\"\\n"} 1.5

        """)
  }

  @Test func aHistogramsBucketsAreCumulative() {
    let histogram = MetricHistogram(buckets: [0.001, 0.01])
    histogram.observe(.microseconds(500))
    histogram.observe(.milliseconds(5))
    histogram.observe(.seconds(2))
    let samples = histogram.samples()
    #expect(samples.map(\.value) == [1, 2, 3, 2.0055, 3])
    #expect(samples.map(\.suffix) == ["_bucket", "_bucket", "_bucket", "_sum", "_count"])
    #expect(samples.prefix(3).map { $0.labels.last!.value } == ["0.001", "0.01", "+Inf"])
  }

  @Test func addressesAreHostAndPort() {
    #expect(MetricsAddress("127.0.0.1:9101") == MetricsAddress(host: "127.0.0.1", port: 9101))
    #expect(MetricsAddress("[::1]:0") == MetricsAddress(host: "::1", port: 0))
    #expect(MetricsAddress("[::1]:0")?.description == "[::1]:0")
    for bad in ["9101", ":9101", "host:", "host:70000", "host:x"] {
      #expect(MetricsAddress(bad) == nil, "\(bad)")
    }
  }

  /// A leader and a follower served at /metrics on port 0, scraped over HTTP.
  @Test func aLeaderAndAFollowerAreScraped() async throws {
    struct Count: Codable, Equatable, Sendable { var value = 0 }
    struct Add: Action, Codable {}
    let registry = ActionRegistry().registering(Add.self, tag: "add")
    let store = Store<Count>(
      reducer: { state, action in if action is Add { state.value += 1 } }, state: Count())
    let leader = try await Leader(store: store, registry: registry)
    let follower = try await Follower<Count>(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint), registry: registry)
    let server = try MetricsServer(
      serving: [leader.metrics, follower.metrics], at: MetricsAddress(host: "127.0.0.1", port: 0))
    #expect(server.address.port != 0)
    _ = try await follower.send(Add()).applied()

    let (data, response) = try await URLSession.shared.data(from: URL(string: server.url)!)
    let text = String(decoding: data, as: UTF8.self)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(
      (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        == MetricsExposition.contentType)
    #expect(text.contains("\ntandem_leader_sequence 1\n"))
    #expect(text.contains("\ntandem_leader_actions_applied_total 1\n"))
    #expect(text.contains("tandem_follower_sequence{client=\"\(follower.clientID)\"} 1\n"))
    #expect(
      text.contains(
        "tandem_follower_send_to_applied_seconds_count{client=\"\(follower.clientID)\"} 1\n"))
    #expect(text.contains("# TYPE tandem_leader_dispatch_to_publish_seconds histogram\n"))
    server.stop()
    await follower.stop()
    await leader.stop()
  }

  @Test func anAddressInUseIsAClearError() throws {
    let first = try MetricsServer(serving: [], at: "127.0.0.1:0")
    defer { first.stop() }
    #expect {
      try MetricsServer(serving: [], at: first.address)
    } throws: { error in
      "\(error)".hasPrefix("cannot serve metrics on 127.0.0.1:\(first.address.port): ")
    }
    #expect(throws: MetricsServerError.self) { try MetricsServer(serving: [], at: "nonsense") }
  }
}
