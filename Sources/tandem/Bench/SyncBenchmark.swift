import CommandLineKit
import Foundation
import StatePatch
import Tandem
import TandemSync

/// `tandem bench sync`: a leader and its followers, in one run:
/// 1. the leader's time per action (a one-field change of a 10,000-item state, with one follower
///    process following) and the bytes of each delta on the wire;
/// 2. the time for a new follower to join a state of about 1 MB;
/// 3. throughput: three follower processes, each sending with a window of unacknowledged
///    actions, counted as applied at the leader and as delivered to every replica (on a state of
///    `--throughput-items` items, 100 by default); with a delta per action and with a delta per
///    batch, each once with replica stores that nobody subscribes to and once with a subscriber
///    on each (every published state shown);
/// 4. latency: one follower process, `send` to `receipt.applied()`, p50 and p99, with the
///    sending task on the follower's I/O thread and on the cooperative pool, beside a raw ZeroMQ
///    DEALER to ROUTER round trip between two processes (same state).
/// 5. metrics: the throughput of part 3 (a delta per action, no subscribers) with the leader's
///    metrics collected every 100 ms and without, alternating within each run, and their ratio.
/// 6. with `--curve`: the throughput of part 3 (no subscribers, each grouping) and the
///    latency of part 4 (task on the pool) with CURVE keys beside plain mode, alternating
///    within each run, and their ratios.
/// `--parts` picks some of them (`leader`, `join`, `throughput`, `latency`, `metrics`, `curve`;
/// all but `curve` by default; `--curve` adds it).
/// Durability is off (no journal). Helper processes are this executable with `--worker`.
let syncBenchmark = Command(
  name: "sync",
  summary: "Leader and followers: time and bytes per action, join time, throughput, latency",
  usage:
    "[--runs N] [--items N] [--actions N] [--senders N] [--window N] [--round-trips N]"
    + " [--throughput-items N] [--parts leader,join,throughput,latency,metrics,curve]"
    + " [--curve]",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["subscribe", "on-loop", "curve"])
    if let role = arguments.option("worker") {
      try SyncBenchmarkWorker.run(role: role, arguments: &arguments)
      return
    }
    var benchmark = SyncBenchmark(
      runs: try arguments.integer("runs", default: 5, in: 1...101),
      items: try arguments.integer("items", default: 10_000, in: 10...1_000_000),
      actions: try arguments.integer("actions", default: 20_000, in: 100...10_000_000),
      senders: try arguments.integer("senders", default: 3, in: 1...16),
      window: try arguments.integer("window", default: 256, in: 1...10_000),
      roundTrips: try arguments.integer("round-trips", default: 5_000, in: 100...1_000_000),
      throughputItems: try arguments.integer("throughput-items", default: 100, in: 1...1_000_000),
      parts: try SyncBenchmark.Part.list(arguments.option("parts")))
    if arguments.flag("curve") { benchmark.parts.insert(.curve) }
    try arguments.finish()
    ChildProcess.terminateOnSignal()
    TandemLogging.bootstrapStandard(level: .error)
    try blockingAsync { [benchmark] in try await benchmark.run() }
  }
)

struct SyncBenchmark: Sendable {
  var runs: Int
  var items: Int
  var actions: Int
  var senders: Int
  var window: Int
  var roundTrips: Int
  /// The items of the state the throughput and latency runs use (the protocol's cost, not the
  /// diff of a large state, which the per-action figure measures).
  var throughputItems: Int
  /// The parts to run (always in the order of ``Part``).
  var parts: Set<Part>

  /// The benchmark's parts, each with its own rows.
  enum Part: String, CaseIterable {
    case leader, join, throughput, latency, metrics, curve

    /// The parts named in `list` (comma-separated), or all but `curve` when it is nil.
    static func list(_ list: String?) throws -> Set<Part> {
      guard let list else { return Set(allCases).subtracting([.curve]) }
      var parts: Set<Part> = []
      for name in list.split(separator: ",") {
        guard let part = Part(rawValue: String(name)) else {
          let known = allCases.map(\.rawValue).joined(separator: ", ")
          throw UsageError("unknown part '\(name)' (the parts: \(known))")
        }
        parts.insert(part)
      }
      guard !parts.isEmpty else { throw UsageError("--parts names no part") }
      return parts
    }
  }

  func run() async throws {
    print(
      "\(items) items, one-field changes, durability off, tcp loopback, median of \(runs) runs"
        + " after 1 warm-up")
    var table = BenchmarkTable(title: "sync", columns: ["measure", "figure", "target"])

    if parts.contains(.leader) { try await addLeaderRows(&table) }
    if parts.contains(.join) { try await addJoinRows(&table) }
    if parts.contains(.throughput) { try await addThroughputRows(&table) }
    if parts.contains(.latency) { try await addLatencyRows(&table) }
    if parts.contains(.metrics) { try await addMetricsRows(&table) }
    if parts.contains(.curve) { try await addCurveRows(&table) }
    table.print()
  }

  /// Part 1: the leader's time per action and the bytes per delta.
  private func addLeaderRows(_ table: inout BenchmarkTable) async throws {
    var perAction: [Double] = []
    var bytes = 0.0
    for run in 0...runs {
      let (seconds, deltaBytes) = try await leaderTimePerAction()
      if run > 0 { perAction.append(seconds * 1e6) }
      bytes = deltaBytes
    }
    table.add(["leader time per action (us)", format(perAction, 1), "<= 400"])
    table.add(["bytes per delta on the wire", BenchmarkTable.format(bytes, decimals: 1), "<= 256"])
  }

  /// Part 2: the time to join a state of about 1 MB.
  private func addJoinRows(_ table: inout BenchmarkTable) async throws {
    let (joins, stateBytes) = try await joinTimes()
    table.add([
      "join a \(BenchmarkTable.format(Double(stateBytes) / 1e6, decimals: 2)) MB state (ms)",
      format(joins, 1), "<= 200",
    ])
  }

  /// Part 3: the sender throughput, in each grouping, without and with subscribers.
  private func addThroughputRows(_ table: inout BenchmarkTable) async throws {
    let loads: [(LeaderConfiguration.DeltaGrouping, subscribed: Bool)] = [
      (.perAction, false), (.perAction, true), (.perBatch, false), (.perBatch, true),
    ]
    for (grouping, subscribed) in loads {
      var applied: [Double] = []
      var delivered: [Double] = []
      let load = SenderThroughput(
        items: throughputItems, actions: actions, senders: senders, window: window,
        subscribed: subscribed)
      for run in 0...runs {
        let (atLeader, everywhere) = try await load.measure { $0.deltaGrouping = grouping }
        if run > 0 {
          applied.append(atLeader)
          delivered.append(everywhere)
        }
      }
      let deltas = grouping == .perAction ? "a delta per action" : "a delta per batch"
      let replicas = subscribed ? "replicas with a subscriber" : "no subscribers"
      table.add([
        "\(senders) senders, window \(window), \(throughputItems) items, \(deltas), \(replicas):",
        "", "",
      ])
      table.add(["  applied at leader (actions/s)", format(applied), ">= 30,000"])
      table.add(["  delivered to every replica (actions/s)", format(delivered), ">= 30,000"])
    }
  }

  /// Part 4: `send` to `applied()` latency beside the raw round trip, with the sending task on
  /// the follower's I/O thread (`withTaskExecutorPreference(follower.executor)`) and on the
  /// cooperative pool, alternating within each run.
  private func addLatencyRows(_ table: inout BenchmarkTable) async throws {
    var onLoop = LatencySamples()
    var onPool = LatencySamples()
    var raw = LatencySamples()
    for run in 0...runs {
      let loopFigures = try await sendLatency(onLoop: true)
      let poolFigures = try await sendLatency(onLoop: false)
      let rawRun = try ZeroMQBenchmark(runs: 1, messages: 2, roundTrips: roundTrips)
        .roundTripRun(.swift)
      guard run > 0 else { continue }
      onLoop.add(loopFigures)
      onPool.add(poolFigures)
      raw.add((rawRun.percentile(50) / 1000, rawRun.percentile(99) / 1000))
    }
    let percentiles: [(name: String, of: KeyPath<LatencySamples, Double>, target: String)] = [
      ("p50", \.p50, "<= 2.5"), ("p99", \.p99, "<= 6"),
    ]
    for (name, percentile, target) in percentiles {
      let rawFigure = raw[keyPath: percentile]
      for (placement, samples) in [("I/O thread", onLoop), ("cooperative pool", onPool)] {
        let figure = samples[keyPath: percentile]
        table.add([
          "send -> applied \(name), task on the \(placement) (us)",
          BenchmarkTable.format(figure, decimals: 1), "",
        ])
        table.add([
          "  ratio to the raw round trip", BenchmarkTable.format(figure / rawFigure, decimals: 2),
          target,
        ])
      }
      table.add([
        "raw DEALER->ROUTER round trip \(name) (us)", BenchmarkTable.format(rawFigure, decimals: 1),
        "",
      ])
    }
  }

  /// Part 5: the sender throughput with the leader's metrics scraped every 100 ms and without,
  /// alternating within each run (so both see the same machine load), and the median ratio.
  private func addMetricsRows(_ table: inout BenchmarkTable) async throws {
    var off: [Double] = []
    var on: [Double] = []
    var ratios: [Double] = []
    for run in 0...runs {
      var load = SenderThroughput(
        items: throughputItems, actions: actions, senders: senders, window: window)
      let without = try await load.measure().applied
      load.scrapeEvery = .milliseconds(100)
      let with = try await load.measure().applied
      if run > 0 {
        off.append(without)
        on.append(with)
        ratios.append(with / without)
      }
    }
    table.add(["metrics off: applied at leader (actions/s)", format(off), ""])
    table.add(["metrics scraped every 100 ms (actions/s)", format(on), ""])
    table.add(["  ratio on/off (median of runs)", format(ratios, 3), ">= 0.97"])
  }

  func format(_ values: [Double], _ decimals: Int = 0) -> String {
    BenchmarkTable.format(Samples(values).median, decimals: decimals)
  }

  private func makeLeader() async throws -> Leader<SyncBenchmarkState> {
    try await SyncBenchmarkState.leader(items: items)
  }

  private func worker(_ role: String, leader: String, _ extra: [String] = []) throws -> ChildProcess
  {
    try SyncBenchmarkWorker.start(role, leader: leader, extra)
  }

  /// Seconds per leader dispatch with one follower process following, and the mean bytes of a
  /// delta message.
  private func leaderTimePerAction() async throws -> (Double, Double) {
    let leader = try await makeLeader()
    let count = max(actions / 4, 1000)
    let follower = try worker("follow", leader: leader.controlEndpoint, ["--until", String(count)])
    try await waitForFollowers(leader, count: 1)
    let before = try await leader.statistics().counters
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for index in 0..<count { leader.store.dispatch(Bump(index: index * 7919)) }
    }
    _ = try follower.finish()
    let after = try await leader.statistics().counters
    await leader.stop()
    let deltas = Double((after["deltasPublished"] ?? 0) - (before["deltasPublished"] ?? 0))
    let bytes = Double((after["bytesPublished"] ?? 0) - (before["bytesPublished"] ?? 0))
    return (elapsed.seconds / Double(count), bytes / max(deltas, 1))
  }

  /// Milliseconds for an in-process follower to join, per run; and the state's size in bytes.
  private func joinTimes() async throws -> ([Double], Int) {
    let leader = try await makeLeader()
    var encoder = StateEncoder()
    let size = try encoder.encode(leader.store.state).canonicalBytes().count
    var times: [Double] = []
    for run in 0...runs {
      let clock = ContinuousClock()
      let start = clock.now
      let follower = try await Follower<SyncBenchmarkState>(
        configuration: FollowerConfiguration(leader: leader.controlEndpoint),
        registry: syncBenchmarkRegistry)
      let elapsed = clock.now - start
      await follower.stop()
      if run > 0 { times.append(elapsed.seconds * 1000) }
    }
    await leader.stop()
    return (times, size)
  }

  /// p50 and p99 of `send` to `applied()`, in microseconds, from a follower process whose
  /// sending task runs on its I/O thread or on the cooperative pool; with `keys`, over CURVE.
  func sendLatency(
    onLoop: Bool, keys: BenchmarkKeys? = nil
  ) async throws -> (p50: Double, p99: Double) {
    let leader = try await SyncBenchmarkState.leader(items: throughputItems) {
      $0.security = keys?.leaderSecurity
    }
    let follower = try worker(
      "latency", leader: leader.controlEndpoint,
      ["--count", String(roundTrips)] + (onLoop ? ["--on-loop"] : [])
        + (keys?.workerArguments ?? []))
    let figures = try follower.finish().split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    await leader.stop()
    guard figures.count == 2 else { throw ChildProcessFailed(name: "sync latency", status: -1) }
    return (figures[0], figures[1])
  }

  /// Waits until `count` followers have said hello.
  private func waitForFollowers(_ leader: Leader<SyncBenchmarkState>, count: Int) async throws {
    while try await leader.statistics().followers.count < count {
      try await Task.sleep(for: .milliseconds(2))
    }
  }
}

/// The p50 and p99 figures of the measured runs; each figure is the median over the runs.
struct LatencySamples {
  private var p50s: [Double] = []
  private var p99s: [Double] = []

  mutating func add(_ figures: (p50: Double, p99: Double)) {
    p50s.append(figures.p50)
    p99s.append(figures.p99)
  }

  var p50: Double { Samples(p50s).median }
  var p99: Double { Samples(p99s).median }
}
