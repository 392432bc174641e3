import Testing

@testable import TandemSimulation

/// The simulator of standby leaders: fixed seeds run clean with every fault, a seed replays
/// exactly, and each rule it breaks on purpose is reported as a violation.
@Suite("Deterministic simulation of standby leaders")
struct FailoverSimulationTests {
  func run(
    _ seed: UInt64, _ mutation: FailoverConfiguration.Mutation? = nil, steps: Int = 8_000,
    faults: Set<FailoverConfiguration.Fault> = Set(FailoverConfiguration.Fault.allCases)
  ) -> SimulationReport {
    var configuration = FailoverConfiguration()
    configuration.mutation = mutation
    configuration.faults = faults
    return FailoverSimulation(seed: seed, configuration: configuration).run(steps: steps)
  }

  @Test("fixed seeds run without a violation", arguments: [1, 2, 3, 4] as [UInt64])
  func fixedSeed(_ seed: UInt64) {
    let report = run(seed)
    #expect(report.violations.isEmpty, "\(report)\n\(report.violations.map(\.description))")
    #expect((report.counts["takeovers"] ?? 0) > 1)
    #expect((report.counts["actions acknowledged"] ?? 0) > 100)
  }

  @Test("a seed replays its run exactly")
  func replay() {
    let first = run(42, steps: 3_000)
    let second = run(42, steps: 3_000)
    #expect(first.digest == second.digest)
    #expect(first.counts == second.counts)
    #expect(run(43, steps: 3_000).digest != first.digest)
  }

  @Test("acknowledging without the lease's margin is caught")
  func acknowledgeAfterLease() {
    let seeds: [UInt64] = [14, 15, 16, 17]
    #expect(seeds.map { run($0, steps: 20_000).violations.count } == [0, 0, 0, 0])
    let broken = seeds.map { run($0, .acknowledgeAfterLease, steps: 20_000) }
    #expect(
      broken.contains { report in
        report.violations.contains { $0.invariant == "acknowledged only while holding the lease" }
      })
  }

  @Test("appending without the fencing check is caught")
  func appendWithoutFencing() {
    // A leader cut off from the arbiter gives a commit up; the transaction reaches the
    // arbiter late, after another leader applied its actions again.
    let clean = run(14, steps: 20_000, faults: [.cutOff])
    #expect(clean.violations.isEmpty, "\(clean.violations.map(\.description))")
    let broken = [run(14, .appendWithoutFencing, steps: 20_000, faults: [.cutOff])]
    #expect(
      broken.contains { report in
        report.violations.contains { $0.invariant == "exactly once" }
      })
  }
}
