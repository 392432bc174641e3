import TandemSync

extension SyncBenchmark {
  /// Part 6 (`--curve`): the sender throughput (a delta per action, no subscribers) and the
  /// `send` to `applied()` latency (task on the pool) with CURVE keys and without, alternating
  /// within each run so that both see the same machine load, and their ratios.
  func addCurveRows(_ table: inout BenchmarkTable) async throws {
    let keys = try BenchmarkKeys()
    var plainThroughput: [Double] = []
    var curveThroughput: [Double] = []
    var plainLatency = LatencySamples()
    var curveLatency = LatencySamples()
    let plainLoad = SenderThroughput(
      items: throughputItems, actions: actions, senders: senders, window: window)
    var curveLoad = plainLoad
    curveLoad.workerArguments = keys.workerArguments
    let security = keys.leaderSecurity
    for run in 0...runs {
      let plain = try await plainLoad.measure().applied
      let curve = try await curveLoad.measure { $0.security = security }.applied
      let plainFigures = try await sendLatency(onLoop: false)
      let curveFigures = try await sendLatency(onLoop: false, keys: keys)
      guard run > 0 else { continue }
      plainThroughput.append(plain)
      curveThroughput.append(curve)
      plainLatency.add(plainFigures)
      curveLatency.add(curveFigures)
    }
    let throughputRatio =
      Samples(curveThroughput).median / Samples(plainThroughput).median
    table.add([
      "\(senders) senders, window \(window), \(throughputItems) items, a delta per action:", "", "",
    ])
    table.add(["  plain: applied at leader (actions/s)", format(plainThroughput), ""])
    table.add(["  CURVE: applied at leader (actions/s)", format(curveThroughput), ""])
    table.add([
      "  ratio CURVE/plain", BenchmarkTable.format(throughputRatio, decimals: 2), ">= 0.8",
    ])
    for (name, percentile, target) in [("p50", \LatencySamples.p50, "<= 1.25"), ("p99", \.p99, "")]
    {
      let plain = plainLatency[keyPath: percentile]
      let curve = curveLatency[keyPath: percentile]
      table.add([
        "send -> applied \(name), plain / CURVE (us)",
        "\(BenchmarkTable.format(plain, decimals: 1)) / \(BenchmarkTable.format(curve, decimals: 1))",
        "",
      ])
      table.add(["  ratio CURVE/plain", BenchmarkTable.format(curve / plain, decimals: 2), target])
    }
  }
}
