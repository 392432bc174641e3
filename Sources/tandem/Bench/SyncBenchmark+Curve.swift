import TandemSync

extension SyncBenchmark {
  /// Part 6 (`--curve`): the sender throughput (no subscribers; a delta per action, then a delta
  /// per batch) and the `send` to `applied()` latency (task on the pool) with CURVE keys and
  /// without, alternating within each run so that both see the same machine load, and their
  /// ratios.
  func addCurveRows(_ table: inout BenchmarkTable) async throws {
    let keys = try BenchmarkKeys()
    let plainLoad = SenderThroughput(
      items: throughputItems, actions: actions, senders: senders, window: window)
    var curveLoad = plainLoad
    curveLoad.workerArguments = keys.workerArguments
    let security = keys.leaderSecurity
    for grouping in [LeaderConfiguration.DeltaGrouping.perAction, .perBatch] {
      var plain: [Double] = []
      var curve: [Double] = []
      for run in 0...runs {
        let plainFigure = try await plainLoad.measure { $0.deltaGrouping = grouping }.applied
        let curveFigure = try await curveLoad.measure {
          $0.deltaGrouping = grouping
          $0.security = security
        }.applied
        guard run > 0 else { continue }
        plain.append(plainFigure)
        curve.append(curveFigure)
      }
      let deltas = grouping == .perAction ? "a delta per action" : "a delta per batch"
      table.add([
        "\(senders) senders, window \(window), \(throughputItems) items, \(deltas):", "", "",
      ])
      table.add(["  plain: applied at leader (actions/s)", format(plain), ""])
      table.add(["  CURVE: applied at leader (actions/s)", format(curve), ""])
      let ratio = Samples(curve).median / Samples(plain).median
      table.add(["  ratio CURVE/plain", BenchmarkTable.format(ratio, decimals: 2), ">= 0.8"])
    }
    var plainLatency = LatencySamples()
    var curveLatency = LatencySamples()
    for run in 0...runs {
      let plainFigures = try await sendLatency(onLoop: false)
      let curveFigures = try await sendLatency(onLoop: false, keys: keys)
      guard run > 0 else { continue }
      plainLatency.add(plainFigures)
      curveLatency.add(curveFigures)
    }
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
