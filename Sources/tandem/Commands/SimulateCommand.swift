import CommandLineKit
import TandemSimulation

/// `tandem simulate`: runs the deterministic simulator of the protocol.
let simulateCommand = Command(
  name: "simulate",
  summary: "Check the protocol's rules in a deterministic simulation with faults",
  usage: "[--seed S] [--steps N] [--seeds K] [--mutation RULE] [--without KINDS]\n"
    + "  [--ledger-pressure] [--standby] [--verbose] [--trace]\n\n"
    + "  --seed S         the first seed (default: a random one, printed)\n"
    + "  --steps N        steps per seed, with faults, before the run settles (default 20000)\n"
    + "  --seeds K        runs seeds S, S+1, ... S+K-1 (default 1)\n"
    + "  --mutation RULE  breaks one rule on purpose, to show the checks notice: "
    + SimulationConfiguration.Mutation.allCases.map(\.rawValue).joined(separator: ", ") + "\n"
    + "  --without KINDS  injects no fault of these kinds (comma-separated): "
    + FaultKind.allCases.map(\.rawValue).joined(separator: ", ") + "\n"
    + "  --ledger-pressure  gives some seeds ledger bounds so small that the leader forgets\n"
    + "                   clients that are still sending\n"
    + "  --standby        simulates standby leaders instead: leader processes sharing a\n"
    + "                   journal and a lease, killed, paused past their lease, cut off from\n"
    + "                   the database and handing over, under clients' load; its rules: "
    + FailoverConfiguration.Mutation.allCases.map(\.rawValue).joined(separator: ", ") + "\n"
    + "  --verbose        one line per seed\n"
    + "  --trace          prints every step's events and messages as they happen\n\n"
    + "One leader and several followers run in this process over a simulated network, with\n"
    + "messages delayed and dropped, connections broken, processes paused, killed and\n"
    + "restarted, client ids shared, and journals refusing commits or losing their tail. After\n"
    + "every step the invariants of exactly-once dispatch and replica sync are checked; after\n"
    + "the faults stop, that every replica converges and every receipt settles. A seed replays\n"
    + "its run exactly: a violation prints the seed and the steps that led to it.\n\n"
    + "Exits with status 1 when an invariant was violated.",
  run: { words in
    var arguments = try CommandLineArguments(
      words, flags: ["verbose", "trace", "ledger-pressure", "standby"])
    if arguments.flag("standby") { return try simulateStandby(&arguments) }
    let (first, steps, seeds) = try seedOptions(&arguments)
    let mutation = try arguments.option(
      "mutation",
      expected: SimulationConfiguration.Mutation.allCases.map(\.rawValue).joined(separator: ", "),
      { SimulationConfiguration.Mutation(rawValue: $0) })
    let without =
      try arguments.option(
        "without",
        expected: "fault kinds separated by commas: "
          + FaultKind.allCases.map(\.rawValue).joined(separator: ", "),
        { text -> Set<FaultKind>? in
          let kinds = text.split(separator: ",").map { FaultKind(rawValue: String($0)) }
          return kinds.contains(nil) ? nil : Set(kinds.compactMap { $0 })
        }) ?? []
    let ledgerPressure = arguments.flag("ledger-pressure")
    let verbose = arguments.flag("verbose")
    let printsTrace = arguments.flag("trace")
    try arguments.finish()

    let clock = ContinuousClock()
    let start = clock.now
    var total = SimulationSummary()
    for offset in 0..<UInt64(seeds) {
      let (seed, overflow) = first.addingReportingOverflow(offset)
      guard !overflow else { break }
      let simulation = Simulation(
        seed: seed, mutation: mutation, without: without, ledgerPressure: ledgerPressure,
        printsTrace: printsTrace)
      let report = simulation.run(steps: steps)
      total.add(report)
      if verbose || !report.violations.isEmpty { try writeLine("\(report)") }
      for violation in report.violations {
        try writeLine("  violation at \(violation)")
      }
      if !report.violations.isEmpty {
        try writeLine(
          "  replay: tandem simulate --seed \(seed) --steps \(steps)"
            + (mutation.map { " --mutation \($0.rawValue)" } ?? ""))
      }
    }
    let elapsed = clock.now - start
    try writeLine(total.text(seconds: elapsed, firstSeed: first))
    guard total.violations == 0 else {
      throw CommandFailure(
        .failure, "\(total.violations) invariant violations in \(total.failingSeeds.count) seeds")
    }
  }
)

/// What several seeds' runs add up to.
private struct SimulationSummary {
  var seeds = 0
  var steps = 0
  var simulatedMilliseconds: Int64 = 0
  var violations = 0
  var failingSeeds: [UInt64] = []
  var faults: [FaultKind: Int] = [:]
  var counts: [String: Int] = [:]

  mutating func add(_ report: SimulationReport) {
    seeds += 1
    steps += report.steps
    simulatedMilliseconds += report.simulatedMilliseconds
    violations += report.violations.count
    if !report.violations.isEmpty { failingSeeds.append(report.seed) }
    faults.merge(report.faults, uniquingKeysWith: +)
    counts.merge(report.counts, uniquingKeysWith: +)
  }

  func text(seconds elapsed: Duration, firstSeed: UInt64) -> String {
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let faultText = faults.keys.sorted().map { "  \($0.rawValue): \(faults[$0]!)" }
    let countText = counts.keys.sorted().map { "  \($0): \(counts[$0]!)" }
    return
      ([
        "seeds: \(seeds) (from \(firstSeed))",
        "steps: \(steps) (\(Int(Double(steps) / max(seconds, 0.001))) per second, "
          + "\((seconds * 10).rounded() / 10) s)",
        "simulated time: \(simulatedMilliseconds / 1000) s",
        "faults injected: \(faults.values.reduce(0, +))",
      ] + faultText + ["events:"] + countText + [
        "violations: \(violations)"
          + (failingSeeds.isEmpty
            ? "" : " (seeds \(failingSeeds.map(String.init).joined(separator: ", ")))")
      ]).joined(separator: "\n")
  }
}
