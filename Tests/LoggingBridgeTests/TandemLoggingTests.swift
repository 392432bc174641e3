import StatePatch
import Synchronization
import Tandem
import Testing
import ZeroMQ

@testable import TandemProtocol
@testable import TandemSync

/// A handler that collects the records it is given.
struct CollectingHandler: TandemLogHandler {
  let records: Records
  var logLevel: TandemLogger.Level = .trace
  var metadata: TandemLogger.Metadata = [:]

  final class Records: Sendable {
    let all = Mutex<[TandemLogRecord]>([])
    var messages: [String] { all.withLock { $0.map(\.message) } }
  }

  func log(_ record: TandemLogRecord) {
    var record = record
    record.metadata = record.metadata(over: metadata)
    records.all.withLock { $0.append(record) }
  }
}

@Suite("Tandem's logging API")
struct TandemLoggingTests {
  @Test func aBootstrappedFactoryMakesEveryNewLoggersHandler() {
    let records = CollectingHandler.Records()
    let label = "bootstrap-test-" + String(UInt64.random(in: 0...UInt64.max))
    TandemLogging.bootstrap { name in
      name == label
        ? CollectingHandler(records: records)
        : TandemLogging.standardHandler(label: name)
    }
    defer { TandemLogging.bootstrap { TandemLogging.standardHandler(label: $0) } }
    let log = TandemLogger(label: label)
    log.trace("every frame")
    log.critical("stopping", metadata: ["reason": "disk"])
    #expect(records.messages == ["every frame", "stopping"])
    #expect(records.all.withLock { $0.last?.metadata } == ["reason": "disk"])
    #expect(records.all.withLock { $0.last?.level } == .critical)
  }

  @Test func theEnvironmentChoosesTheStandardHandler() {
    let json = TandemLogging.standardHandler(
      label: "x", environment: ["TANDEM_LOG_FORMAT": "json", "TANDEM_LOG": "debug"])
    #expect((json as? TandemStreamLogHandler)?.format == .json && json.logLevel == .debug)
    let text = TandemLogging.standardHandler(label: "x", environment: ["TANDEM_LOG": "nonsense"])
    #expect((text as? TandemStreamLogHandler)?.format == .text && text.logLevel == .info)
    #expect(TandemLogger.Level("ERROR") == .error && TandemLogger.Level("loud") == nil)
  }

  @Test func aJSONLineIsOneCanonicalObject() throws {
    let record = TandemLogRecord(
      label: "leader", level: .info, message: "hello from \"web-1\"\n",
      metadata: ["client": "web-1"], file: "TandemSync/X.swift", line: 7)
    var handler = TandemStreamLogHandler(format: .json)
    handler.metadata = ["pid": "1"]
    let line = handler.line(record, time: "T")
    #expect(
      line == #"{"label":"leader","level":"info","message":"hello from \"web-1\"\n","#
        + #""metadata":{"client":"web-1","pid":"1"},"source":"TandemSync/X.swift:7","time":"T"}"#)
    #expect(try JSONParser().parse(line).canonicalText == line)
  }

  @Test func aTextLineKeepsTheFormatOfOld() {
    let record = TandemLogRecord(
      label: "follower[web-1]", level: .info, message: "replica at sequence 3",
      metadata: ["suppressed": "4", "note": "two words"])
    #expect(
      TandemStreamLogHandler().line(record, time: "T")
        == #"T info  follower[web-1] replica at sequence 3 note="two words" suppressed=4"#)
  }

  @Test func aRateLimitedPlaceWritesABurstPerWindowAndCountsTheRest() {
    let limiter = LogRateLimiter(burst: 3, window: .seconds(10))
    let start = ContinuousClock.now
    let admitted = (0..<10).map { _ in limiter.admit("place", now: start) }
    #expect(admitted == [0, 0, 0, nil, nil, nil, nil, nil, nil, nil])
    #expect(limiter.admit("another place", now: start) == 0)
    #expect(limiter.admit("place", now: start + .seconds(10)) == 7)
    #expect(limiter.admit("place", now: start + .seconds(10)) == 0)
  }

  /// A peer sending malformed requests as fast as it can makes the leader write a burst of
  /// lines, not one per request.
  @Test func aFloodOfMalformedRequestsIsLoggedABurstAtATime() async throws {
    let records = CollectingHandler.Records()
    let label = "leader-flood-" + String(UInt64.random(in: 0...UInt64.max))
    let store = Store<Int>(reducer: { _, _ in }, state: 0)
    var configuration = LeaderConfiguration()
    configuration.logger = TandemLogger(label: label, handler: CollectingHandler(records: records))
    let leader = try await Leader(
      store: store, registry: ActionRegistry(), configuration: configuration)
    let context = Context()
    let socket = try Socket(context, .dealer)
    defer { socket.close() }
    try socket.set(.linger, .zero)
    try socket.connect(try #require(Endpoint(parsing: leader.controlEndpoint)))
    for _ in 0..<50 {
      // A frame that is no command: refused as malformed, and logged (rate-limited).
      try socket.send(parts: [Array("NONSENSE".utf8)])
    }
    try socket.send(parts: ControlRequest.stats.frames)
    // The replies come in order: the STATS reply comes after every refusal was logged.
    var replies = 0
    while let parts = try socket.receiveParts(wait: .timeout(.seconds(10))) {
      replies += 1
      if case .stats? = try? ControlReply(frames: parts) { break }
    }
    #expect(replies == 51)
    await leader.stop()
    let refused = records.messages.filter { $0.hasPrefix("refused a malformed request") }
    #expect(refused.count == LogRateLimiter.shared.burst)
  }
}
