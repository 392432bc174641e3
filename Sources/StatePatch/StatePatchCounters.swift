/// How much work a diff or a replica update did, counted in nodes of the canonical JSON tree.
///
/// The differ and ``StateReplica`` add to these counters as they go, so a test or a benchmark
/// can check that a one-field change touched a handful of nodes rather than the whole state:
///
/// ```swift
/// var differ = StateDiffer()
/// let patch = try differ.patch(from: old, to: new)
/// print(differ.counters.nodesEncoded)  // JSON nodes built for the patch's values
/// ```
public struct StatePatchCounters: Sendable, Hashable, CustomStringConvertible {
  /// JSON nodes built by encoding typed values (each scalar, array and object counts once).
  public var nodesEncoded: Int = 0
  /// Typed values checked for equality with the old value at the same path, including the
  /// elements an array scan proved equal by identity.
  public var nodesCompared: Int = 0
  /// JSON nodes decoded into typed values.
  public var nodesDecoded: Int = 0
  /// Typed subtrees of the old value that a replica update reused without decoding.
  public var subtreesReused: Int = 0

  /// Zero counters.
  public init() {}

  /// Adds the counts of `other` to these.
  public mutating func add(_ other: StatePatchCounters) {
    nodesEncoded += other.nodesEncoded
    nodesCompared += other.nodesCompared
    nodesDecoded += other.nodesDecoded
    subtreesReused += other.subtreesReused
  }

  public var description: String {
    "encoded \(nodesEncoded), compared \(nodesCompared), decoded \(nodesDecoded), "
      + "reused \(subtreesReused)"
  }
}
