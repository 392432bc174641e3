import CZeroMQBaseline
import CommandLineKit
import Foundation
import ZeroMQ

/// `tandem bench zmq`: the ZeroMQ wrapper against raw libzmq called from C, in one run.
///
/// Each measurement runs between this process and a peer process (this executable started
/// again with the hidden `--peer` option), over tcp loopback:
/// - PUB to SUB throughput, 64 B and 1 KiB messages: the peer publishes (an XPUB with
///   `ZMQ_XPUB_NODROP`, so nothing is dropped), this process subscribes and times the first to
///   the last message;
/// - DEALER to ROUTER round trips: this process sends from a DEALER, the peer echoes from a
///   ROUTER; p50 and p99 of every round trip of a run.
/// One untimed warm-up run, then `--runs` timed runs alternating wrapper and C; the figure is
/// the median over the runs.
let zmqBenchmark = Command(
  name: "zmq",
  summary: "ZeroMQ wrapper vs raw libzmq from C: PUB/SUB msgs/s, DEALER/ROUTER round trip",
  usage: "[--runs N] [--messages N] [--round-trips N] [--samples]",
  run: { arguments in
    var arguments = try CommandLineArguments(arguments, flags: ["samples"])
    if let role = arguments.option("peer") {
      try ZeroMQBenchmarkPeer.run(role: role, arguments: &arguments)
      return
    }
    let runs = try arguments.integer("runs", default: 5, in: 1...101)
    let messages = try arguments.integer("messages", default: 1_000_000, in: 2...100_000_000)
    let roundTrips = try arguments.integer("round-trips", default: 20_000, in: 100...10_000_000)
    let samples = arguments.flag("samples")
    try arguments.finish()
    ChildProcess.terminateOnSignal()
    try ZeroMQBenchmark(
      runs: runs, messages: messages, roundTrips: roundTrips, printsSamples: samples
    ).run()
  }
)

/// The two implementations measured.
enum ZeroMQImplementation: String, CaseIterable {
  case swift
  case c
}

struct ZeroMQBenchmark {
  var runs: Int
  var messages: Int
  var roundTrips: Int
  /// Whether to print every timed run's figure, not only the medians.
  var printsSamples = false

  func run() throws {
    let version = Context.version
    print(
      "libzmq \(version.major).\(version.minor).\(version.patch), tcp loopback, two processes,"
        + " median of \(runs) runs after 1 warm-up; load average before: \(loadAverage())")
    var cpuRows: [(String, [ZeroMQImplementation: [Double]])] = []
    var table = BenchmarkTable(
      title: "zmq", columns: ["measure", "wrapper", "raw C", "wrapper / C", "target"])
    for size in [64, 1024] {
      var rates: [ZeroMQImplementation: [Double]] = [:]
      var cpu: [ZeroMQImplementation: [Double]] = [:]
      try alternate { implementation, timed in
        let cpuBefore = cpuSeconds()
        let seconds = try throughputRun(implementation, size: size)
        let cpuUsed = cpuSeconds() - cpuBefore
        if timed {
          rates[implementation, default: []].append(Double(messages - 1) / seconds)
          cpu[implementation, default: []].append(cpuUsed / Double(messages) * 1e9)
        }
      }
      let swift = Samples(rates[.swift]!).median
      let c = Samples(rates[.c]!).median
      let label = size == 64 ? "64 B" : "1 KiB"
      printSamples("PUB->SUB \(label) msgs/s", rates)
      table.add([
        "PUB->SUB \(label) msgs/s", BenchmarkTable.format(swift), BenchmarkTable.format(c),
        BenchmarkTable.format(swift / c, decimals: 2), ">= 0.85",
      ])
      cpuRows.append(("PUB->SUB \(label) CPU ns/msg", cpu))
    }
    var p50s: [ZeroMQImplementation: [Double]] = [:]
    var roundTripCPU: [ZeroMQImplementation: [Double]] = [:]
    var p99s: [ZeroMQImplementation: [Double]] = [:]
    try alternate { implementation, timed in
      let cpuBefore = cpuSeconds()
      let samples = try roundTripRun(implementation)
      let cpuUsed = cpuSeconds() - cpuBefore
      if timed {
        roundTripCPU[implementation, default: []].append(cpuUsed / Double(roundTrips) * 1e6)
        p50s[implementation, default: []].append(samples.percentile(50) / 1000)
        p99s[implementation, default: []].append(samples.percentile(99) / 1000)
      }
    }
    for (name, figures) in [("p50", p50s), ("p99", p99s)] {
      printSamples("DEALER->ROUTER RTT \(name) us", figures)
      let swift = Samples(figures[.swift]!).median
      let c = Samples(figures[.c]!).median
      table.add([
        "DEALER->ROUTER RTT \(name) us", BenchmarkTable.format(swift, decimals: 1),
        BenchmarkTable.format(c, decimals: 1), BenchmarkTable.format(swift / c, decimals: 2),
        "<= 1.15",
      ])
    }
    cpuRows.append(("DEALER->ROUTER CPU us/trip", roundTripCPU))
    for (label, figures) in cpuRows {
      printSamples(label, figures)
      let swift = Samples(figures[.swift]!).median
      let c = Samples(figures[.c]!).median
      table.add([
        label, BenchmarkTable.format(swift, decimals: 1), BenchmarkTable.format(c, decimals: 1),
        BenchmarkTable.format(swift / c, decimals: 2), "-",
      ])
    }
    table.print()
    print(
      "CPU rows: user + system time of both processes per message or round trip, peer start-up"
        + " included (the same executable for both); steadier than rates on a loaded machine.")
  }

  private func printSamples(_ label: String, _ figures: [ZeroMQImplementation: [Double]]) {
    guard printsSamples else { return }
    for implementation in ZeroMQImplementation.allCases {
      let values = figures[implementation]!.map { BenchmarkTable.format($0, decimals: 1) }
      print("\(label) \(implementation.rawValue): \(values.joined(separator: ", "))")
    }
  }

  /// One warm-up, then `runs` timed runs of each implementation, alternating which goes first.
  private func alternate(_ body: (ZeroMQImplementation, _ timed: Bool) throws -> Void) throws {
    for run in 0...runs {
      let order: [ZeroMQImplementation] = run.isMultiple(of: 2) ? [.swift, .c] : [.c, .swift]
      for implementation in order { try body(implementation, run > 0) }
    }
  }

  /// Seconds from the first to the last of `messages` messages of `size` bytes.
  private func throughputRun(_ implementation: ZeroMQImplementation, size: Int) throws -> Double {
    switch implementation {
    case .swift:
      let context = Context()
      let subscriber = try Socket(context, .sub)
      try subscriber.set(.linger, .zero)
      try subscriber.subscribe()
      try subscriber.bind(.tcp(host: "127.0.0.1"))
      let endpoint = try subscriber.lastEndpoint
      let peer = try ZeroMQBenchmarkPeer.start(
        "publish-swift", endpoint: endpoint.description, size: size, count: messages)
      let clock = ContinuousClock()
      let message = Message()
      _ = try subscriber.receive(into: message)
      let start = clock.now
      for _ in 1..<messages { _ = try subscriber.receive(into: message) }
      let elapsed = clock.now - start
      _ = try peer.finish()
      return elapsed.seconds
    case .c:
      var endpoint = [CChar](repeating: 0, count: 256)
      guard let subscriber = zb_subscriber_open(&endpoint, endpoint.count) else {
        throw ZeroMQBenchmarkError("zb_subscriber_open failed")
      }
      defer { zb_close(subscriber) }
      let peer = try ZeroMQBenchmarkPeer.start(
        "publish-c", endpoint: text(endpoint), size: size, count: messages)
      let seconds = zb_subscriber_receive(subscriber, messages)
      _ = try peer.finish()
      guard seconds > 0 else { throw ZeroMQBenchmarkError("zb_subscriber_receive failed") }
      return seconds
    }
  }

  /// The duration of each of `roundTrips` 64-byte round trips, in nanoseconds, after 1,000
  /// untimed ones.
  func roundTripRun(_ implementation: ZeroMQImplementation) throws -> Samples {
    let warmups = 1_000
    let size = 64
    var nanoseconds = [Double](repeating: 0, count: roundTrips)
    switch implementation {
    case .swift:
      let context = Context()
      let requester = try Socket(context, .dealer)
      try requester.set(.linger, .zero)
      try requester.bind(.tcp(host: "127.0.0.1"))
      let endpoint = try requester.lastEndpoint
      let peer = try ZeroMQBenchmarkPeer.start(
        "echo-swift", endpoint: endpoint.description, size: size, count: warmups + roundTrips)
      let payload = [UInt8](repeating: 0, count: size)
      let reply = Message()
      for _ in 0..<warmups {
        try requester.send(payload)
        _ = try requester.receive(into: reply)
      }
      for index in 0..<roundTrips {
        let start = ContinuousClock.now
        try requester.send(payload)
        _ = try requester.receive(into: reply)
        nanoseconds[index] = (ContinuousClock.now - start).seconds * 1e9
      }
      _ = try peer.finish()
    case .c:
      var endpoint = [CChar](repeating: 0, count: 256)
      guard let requester = zb_requester_open(&endpoint, endpoint.count) else {
        throw ZeroMQBenchmarkError("zb_requester_open failed")
      }
      defer { zb_close(requester) }
      let peer = try ZeroMQBenchmarkPeer.start(
        "echo-c", endpoint: text(endpoint), size: size, count: warmups + roundTrips)
      var warmupSamples = [Double](repeating: 0, count: warmups)
      guard zb_round_trips(requester, size, warmups, &warmupSamples) == 0,
        zb_round_trips(requester, size, roundTrips, &nanoseconds) == 0
      else { throw ZeroMQBenchmarkError("zb_round_trips failed") }
      _ = try peer.finish()
    }
    return Samples(nanoseconds)
  }
}

/// The peer process of `tandem bench zmq`: this executable, run with `--peer <role>`.
enum ZeroMQBenchmarkPeer {
  /// Starts this executable as the peer playing `role`.
  static func start(_ role: String, endpoint: String, size: Int, count: Int) throws -> ChildProcess
  {
    try ChildProcess(
      "zmq \(role)",
      arguments: [
        "bench", "zmq", "--peer", role, "--endpoint", endpoint, "--size", String(size),
        "--count", String(count),
      ])
  }

  /// The roles a peer plays.
  private enum Role: String {
    case publishSwift = "publish-swift"
    case publishC = "publish-c"
    case echoSwift = "echo-swift"
    case echoC = "echo-c"
  }

  /// Plays `role` (publish-swift, publish-c, echo-swift, echo-c) until its work is done.
  static func run(role name: String, arguments: inout CommandLineArguments) throws {
    guard let role = Role(rawValue: name) else { throw UsageError("unknown peer role '\(name)'") }
    try ChildProcess.endWithParent(&arguments)
    let endpoint = try arguments.required("endpoint")
    guard let parsed = Endpoint(parsing: endpoint) else {
      throw UsageError("--endpoint '\(endpoint)' is not an endpoint")
    }
    let size = try arguments.integer("size", default: 64)
    let count = try arguments.integer("count", default: 1)
    try arguments.finish()
    switch role {
    case .publishSwift:
      let context = Context()
      let publisher = try Socket(context, .xpub)
      try publisher.set(.xpubNoDrop, true)
      try publisher.connect(parsed)
      _ = try publisher.receive()  // the subscription: from here on nothing is lost
      let payload = [UInt8](repeating: 0, count: size)
      for _ in 0..<count { try publisher.send(payload) }
      publisher.close()  // linger forever: the context waits until everything is delivered
    case .echoSwift:
      let context = Context()
      let router = try Socket(context, .router)
      try router.connect(parsed)
      let identity = Message()
      let payload = Message()
      for _ in 0..<count {
        _ = try router.receive(into: identity)
        _ = try router.receive(into: payload)
        try router.send(identity, more: true)
        try router.send(payload)
      }
      router.close()
    case .publishC:
      let status = zb_publish(endpoint, size, count)
      guard status == 0 else { throw ZeroMQBenchmarkError("zb_publish failed: errno \(status)") }
    case .echoC:
      let status = zb_echo(endpoint, count)
      guard status == 0 else { throw ZeroMQBenchmarkError("zb_echo failed: errno \(status)") }
    }
  }
}

/// A benchmark could not run (a libzmq call failed).
struct ZeroMQBenchmarkError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// User plus system CPU seconds used so far by this process and its waited-for children.
private func cpuSeconds() -> Double {
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
  var own = rusage()
  var children = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &own)
    getrusage(RUSAGE_CHILDREN.rawValue, &children)
  #else
    getrusage(RUSAGE_SELF, &own)
    getrusage(RUSAGE_CHILDREN, &children)
  #endif
  return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime)
    + seconds(children.ru_stime)
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`), or "unknown".
func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
    return "unknown"
  }
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// The text of a NUL-terminated C string held in `characters`.
private func text(_ characters: [CChar]) -> String {
  String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
