/// The simulator's only source of chance: SplitMix64 from a seed, so that a seed replays a run
/// exactly, on any machine.
package struct SimulationRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in `range`.
  package mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// True with probability `p`.
  package mutating func chance(_ p: Double) -> Bool {
    p > 0 && Double(next() >> 11) * 0x1p-53 < p
  }

  /// One element of `elements`, which must not be empty.
  package mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element {
    elements.randomElement(using: &self)!
  }
}
