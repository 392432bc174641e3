/// What a simulated run did and found.
package struct SimulationReport: Sendable, CustomStringConvertible {
  /// A broken invariant: which, at which step, and the steps that led to it.
  package struct Violation: Sendable, CustomStringConvertible {
    package var step: Int
    package var invariant: String
    package var detail: String
    package var trace: [String]

    package var description: String {
      "step \(step): \(invariant): \(detail)\n"
        + trace.map { "  \($0)" }.joined(separator: "\n")
    }
  }

  package var seed: UInt64
  package var steps = 0
  package var simulatedMilliseconds: Int64 = 0
  package var faults: [FaultKind: Int] = [:]
  package var violations: [Violation] = []
  /// Counts of what happened, by name (actions sent, acknowledged, applied...).
  package var counts: [String: Int] = [:]
  /// Failover times of a standby run, in simulated milliseconds: from the kill of the active
  /// leader to the first action another leader acknowledged.
  package var failoverMilliseconds: [Int64] = []
  /// A digest of the run's trace: equal for two runs of one seed.
  package var digest: UInt64 = 0xcbf2_9ce4_8422_2325

  package init(seed: UInt64) {
    self.seed = seed
  }

  package mutating func count(_ name: String, _ amount: Int = 1) {
    counts[name, default: 0] += amount
  }

  package var description: String {
    let faultText = faults.keys.sorted().map { "\($0.rawValue) \(faults[$0]!)" }
      .joined(separator: ", ")
    let countText = counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
    return "seed \(seed): \(steps) steps, \(simulatedMilliseconds / 1000) s simulated, "
      + "\(violations.count) violations\n  faults: \(faultText.isEmpty ? "none" : faultText)\n"
      + "  counts: \(countText)"
  }
}
