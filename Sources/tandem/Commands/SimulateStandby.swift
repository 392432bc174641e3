import CommandLineKit
import TandemSimulation

/// The seeds and steps of `tandem simulate`: the first seed (a random one by default), the
/// steps per seed and how many seeds.
func seedOptions(_ arguments: inout CommandLineArguments) throws -> (UInt64, Int, Int) {
  let first =
    try arguments.option("seed", expected: "a whole number", { UInt64($0) })
    ?? UInt64.random(in: 0...UInt64(UInt32.max))
  let steps = try arguments.integer("steps", default: 20_000, in: 1...Int.max)
  let seeds = try arguments.integer("seeds", default: 1, in: 1...Int.max)
  return (first, steps, seeds)
}

/// `tandem simulate --standby`: runs the deterministic simulator of standby leaders.
func simulateStandby(_ arguments: inout CommandLineArguments) throws {
  let (first, steps, seeds) = try seedOptions(&arguments)
  let mutation = try arguments.option(
    "mutation",
    expected: FailoverConfiguration.Mutation.allCases.map(\.rawValue).joined(separator: ", "),
    { FailoverConfiguration.Mutation(rawValue: $0) })
  let without =
    try arguments.option(
      "without",
      expected: "fault kinds separated by commas: "
        + FailoverConfiguration.Fault.allCases.map(\.rawValue).joined(separator: ", "),
      { text -> Set<FailoverConfiguration.Fault>? in
        let kinds = text.split(separator: ",").map {
          FailoverConfiguration.Fault(rawValue: String($0))
        }
        return kinds.contains(nil) ? nil : Set(kinds.compactMap { $0 })
      }) ?? []
  let verbose = arguments.flag("verbose")
  let printsTrace = arguments.flag("trace")
  _ = arguments.flag("ledger-pressure")
  try arguments.finish()

  let clock = ContinuousClock()
  let start = clock.now
  var stepCount = 0
  var violations = 0
  var failing: [UInt64] = []
  var counts: [String: Int] = [:]
  var failovers: [Int64] = []
  for offset in 0..<UInt64(seeds) {
    let (seed, overflow) = first.addingReportingOverflow(offset)
    guard !overflow else { break }
    var configuration = FailoverConfiguration()
    configuration.mutation = mutation
    configuration.faults.subtract(without)
    configuration.printsTrace = printsTrace
    let report = FailoverSimulation(seed: seed, configuration: configuration).run(steps: steps)
    stepCount += report.steps
    violations += report.violations.count
    counts.merge(report.counts, uniquingKeysWith: +)
    failovers += report.failoverMilliseconds
    if !report.violations.isEmpty { failing.append(seed) }
    if verbose || !report.violations.isEmpty { try writeLine("\(report)") }
    for violation in report.violations { try writeLine("  violation at \(violation)") }
    if !report.violations.isEmpty {
      try writeLine(
        "  replay: tandem simulate --standby --seed \(seed) --steps \(steps)"
          + (mutation.map { " --mutation \($0.rawValue)" } ?? ""))
    }
  }
  let elapsed = clock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  failovers.sort()
  func percentile(_ p: Double) -> String {
    guard !failovers.isEmpty else { return "-" }
    return "\(failovers[min(failovers.count - 1, Int(Double(failovers.count) * p))]) ms"
  }
  let lines =
    [
      "standby seeds: \(seeds) (from \(first))",
      "steps: \(stepCount) (\((seconds * 10).rounded() / 10) s)",
      "events:",
    ] + counts.keys.sorted().map { "  \($0): \(counts[$0]!)" } + [
      "failover (kill to the next leader's first acknowledgement, simulated): "
        + "\(failovers.count) failovers, p50 \(percentile(0.5)), p99 \(percentile(0.99)), "
        + "max \(failovers.last.map { "\($0) ms" } ?? "-")",
      "violations: \(violations)"
        + (failing.isEmpty ? "" : " (seeds \(failing.map(String.init).joined(separator: ", ")))"),
    ]
  try writeLine(lines.joined(separator: "\n"))
  guard violations == 0 else {
    throw CommandFailure(.failure, "\(violations) invariant violations in \(failing.count) seeds")
  }
}
