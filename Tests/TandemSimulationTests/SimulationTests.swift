import Testing

@testable import TandemSimulation

/// The deterministic simulator: fixed seeds run clean, a seed replays exactly, and each rule it
/// breaks on purpose is reported as a violation (so its checks can fail).
@Suite("Deterministic simulation of the protocol")
struct SimulationTests {
  @Test("fixed seeds run without a violation", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func fixedSeed(_ seed: UInt64) {
    let report = Simulation(seed: seed).run(steps: 4_000)
    #expect(report.violations.isEmpty, "\(report)\n\(report.violations.map(\.description))")
    #expect(report.faults.values.reduce(0, +) > 0)
    #expect((report.counts["actions acknowledged"] ?? 0) > 100)
  }

  /// Seeds that once found a hole, replayed whole: a process returning to a leader that lost
  /// the tail of its journal, after another process took its client id over and used the
  /// numbers it had not been answered for yet.
  @Test("seeds that found holes stay clean", arguments: [820_964_363] as [UInt64])
  func foundHole(_ seed: UInt64) {
    let report = Simulation(seed: seed).run(steps: 20_000)
    #expect(report.violations.isEmpty, "\(report.violations.map(\.description))")
  }

  @Test("a seed replays its run exactly")
  func replay() {
    let first = Simulation(seed: 42).run(steps: 3_000)
    let second = Simulation(seed: 42).run(steps: 3_000)
    #expect(first.digest == second.digest)
    #expect(first.counts == second.counts)
    #expect(first.faults == second.faults)
    let other = Simulation(seed: 43).run(steps: 3_000)
    #expect(other.digest != first.digest)
  }

  @Test("acknowledging before the batch is journaled is caught")
  func acknowledgeBeforeCommit() {
    let seeds: [UInt64] = [100, 101, 110]
    let clean = seeds.map { Simulation(seed: $0).run(steps: 5_000).violations.count }
    #expect(clean == [0, 0, 0])
    let broken = seeds.map {
      Simulation(seed: $0, mutation: .acknowledgeBeforeCommit).run(steps: 5_000)
    }
    #expect(
      broken.contains { report in
        report.violations.contains { $0.invariant == "acknowledged only if applied" }
      })
  }

  @Test("answering a process taken over against the other's numbering is caught")
  func answerAcrossTakeover() {
    let clean = Simulation(seed: 102).run(steps: 20_000)
    #expect(clean.violations.isEmpty, "\(clean.violations.map(\.description))")
    let broken = Simulation(seed: 102, mutation: .answerAcrossTakeover).run(steps: 20_000)
    #expect(broken.violations.contains { $0.invariant == "acknowledged only if applied" })
  }
}
