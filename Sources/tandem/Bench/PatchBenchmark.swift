import CommandLineKit
import Foundation
import StatePatch

/// `tandem bench patch`: typed diffs and replica updates beside a full `JSONEncoder` encode and
/// a full `JSONDecoder` decode of the same state, at 10,000 and 100,000 items by default
/// (`--sizes 100 --runs 2001` gives the per-action costs of a small state).
let patchBenchmark = Command(
  name: "patch",
  summary: "Typed-state diffs and replica updates beside full JSONEncoder/JSONDecoder runs",
  usage: "[--runs N] [--sizes 10000,100000]",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let runs = try arguments.integer("runs", default: 7, in: 1...Int.max)
    let sizes = try (arguments.option("sizes") ?? "10000,100000").split(separator: ",").map {
      size throws(UsageError) in
      guard let items = Int(size), items >= 100 else {
        throw UsageError("--sizes takes numbers of items of at least 100, not '\(size)'")
      }
      return items
    }
    try arguments.finish()
    guard !sizes.isEmpty else { throw UsageError("--sizes names no size") }
    try PatchBenchmark(runs: runs, sizes: sizes).run()
  }
)

/// One item of the benchmark state, as the issue describes it.
struct BenchItem: Codable, Equatable {
  var id: Int
  var title: String
  var stars: Int
  var tags: [String]
}

/// The benchmark state: a few scalar fields and many items.
struct BenchState: Codable, Equatable {
  var name: String
  var revision: Int
  var updatedAt: Double
  var isOpen: Bool
  var items: [BenchItem]

  init(items count: Int) {
    name = "benchmark"
    revision = 1
    updatedAt = 1_700_000_000.25
    isOpen = true
    items = (0..<count).map(BenchItem.init(number:))
  }
}

extension BenchItem {
  init(number: Int) {
    self.init(
      id: number, title: "Item number \(number)", stars: number % 50,
      tags: ["tag\(number % 7)", "group\(number % 13)"])
  }
}

/// Runs the workloads and prints two tables (diffs, then replica updates).
struct PatchBenchmark {
  var runs: Int
  var sizes: [Int]

  /// The changes measured, each a function from the old state to the new one.
  static let workloads: [(name: String, change: @Sendable (BenchState) -> BenchState)] = [
    (
      "(1) one field of one item",
      { state in
        var state = state
        state.items[state.items.count / 2].stars += 1
        return state
      }
    ),
    (
      "one item field and a counter",
      { state in
        var state = state
        state.items[state.items.count / 2].stars += 1
        state.revision += 1
        return state
      }
    ),
    (
      "(3) 1% of items changed",
      { state in
        var state = state
        for index in stride(from: 0, to: state.items.count, by: 100) {
          state.items[index].stars += 1
        }
        return state
      }
    ),
    (
      "(4) one appended, one removed",
      { state in
        var state = state
        state.items.remove(at: state.items.count / 3)
        state.items.append(BenchItem(number: state.items.count + 1_000_000))
        return state
      }
    ),
  ]

  func run() throws {
    let clock = BenchmarkClock(runs: runs)
    var diffs = BenchmarkTable(
      title: "patch: diff (median of \(runs) runs)",
      columns: [
        "workload", "items", "diff", "JSONEncoder", "speed-up", "patch bytes", "ops", "encoded",
        "compared",
      ])
    var updates = BenchmarkTable(
      title: "patch: replica update (median of \(runs) runs)",
      columns: ["workload", "items", "update", "JSONDecoder", "speed-up", "decoded", "reused"])
    for size in sizes {
      let old = BenchState(items: size)
      let encoder = JSONEncoder()
      var data = Data()
      let encode = try clock.seconds { data = try encoder.encode(old) }.median
      let decoder = JSONDecoder()
      let decode = try clock.seconds { _ = try decoder.decode(BenchState.self, from: data) }.median
      for workload in Self.workloads {
        let new = workload.change(old)
        var counted = StateDiffer()
        let patch = try counted.patch(from: old, to: new)
        let diff = try clock.seconds {
          var differ = StateDiffer()
          _ = try differ.patch(from: old, to: new)
        }.median
        diffs.add([
          workload.name, BenchmarkTable.format(Double(size)), Self.time(diff), Self.time(encode),
          BenchmarkTable.format(encode / diff, decimals: 1) + "x",
          BenchmarkTable.format(Double(patch.canonicalBytes().count)),
          BenchmarkTable.format(Double(patch.operations.count)),
          BenchmarkTable.format(Double(counted.counters.nodesEncoded)),
          BenchmarkTable.format(Double(counted.counters.nodesCompared)),
        ])
        let (update, counters) = try updateTime(old: old, new: new, patch: patch)
        updates.add([
          workload.name, BenchmarkTable.format(Double(size)), Self.time(update), Self.time(decode),
          BenchmarkTable.format(decode / update, decimals: 1) + "x",
          BenchmarkTable.format(Double(counters.nodesDecoded)),
          BenchmarkTable.format(Double(counters.subtreesReused)),
        ])
      }
    }
    diffs.print()
    print()
    updates.print()
  }

  /// The median time of applying `patch` to a replica of `old`, and the counters of one update.
  /// Between timed runs the replica is patched back to `old`, untimed, so that it always owns its
  /// document uniquely, as a follower's replica does.
  private func updateTime(
    old: BenchState, new: BenchState, patch: JSONPatch
  ) throws
    -> (Double, StatePatchCounters)
  {
    var differ = StateDiffer()
    let back = try differ.patch(from: new, to: old)
    var replica = try StateReplica(old)
    let clock = ContinuousClock()
    var times: [Double] = []
    var counters = StatePatchCounters()
    for run in 0...runs {
      let before = replica.counters
      let elapsed = try clock.measure { try replica.apply(patch) }
      if run > 0 { times.append(elapsed.seconds) }
      counters = replica.counters
      counters.nodesDecoded -= before.nodesDecoded
      counters.subtreesReused -= before.subtreesReused
      guard replica.state == new else { throw BenchmarkMismatch() }
      try replica.apply(back)
    }
    return (Samples(times).median, counters)
  }

  /// Seconds as microseconds or milliseconds, whichever reads better.
  static func time(_ seconds: Double) -> String {
    seconds < 0.001
      ? BenchmarkTable.format(seconds * 1e6, decimals: 1) + " µs"
      : BenchmarkTable.format(seconds * 1e3, decimals: 2) + " ms"
  }
}

/// The replica did not end up equal to the new state: the benchmark's figures would be void.
struct BenchmarkMismatch: Error, CustomStringConvertible {
  var description: String { "the patched replica differs from the new state" }
}
