import TandemProtocol

/// The journal's hash chain over its `deltas` rows: each row's `chain` column is the 64-bit
/// FNV-1a hash of the previous row's `chain` and of the row itself (sequence, origin, tag,
/// sender's key when there is one, and patch), so a changed byte in any row, or a row removed, added or moved, breaks the chain at
/// that row.
///
/// The first row's predecessor is ``JournalSchema/chainBaseKey`` in `meta`: 0 for a new
/// journal, and after a compaction the `chain` of the last row it removed, so the oldest row kept
/// is checked too. FNV-1a is no defence against someone who means to forge a history (whoever
/// can write the file can recompute the chain); it finds damage at rest, which SQLite does not
/// (it keeps no checksum of a row).
package struct DeltaChain {
  private var hash: UInt64

  private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x0000_0100_0000_01b3

  /// The chain value of the row of `sequence` whose predecessor's value is `previous`.
  package static func link(
    previous: UInt64, sequence: UInt64, origin: Origin, tag: String, patch: [UInt8]
  ) -> UInt64 {
    var chain = DeltaChain(hash: offsetBasis)
    chain.add(previous)
    chain.add(sequence)
    chain.add(origin.number)
    chain.add(origin.generation)
    chain.add(origin.client)
    chain.add(tag)
    // The sender's key (format 6): only when there is one, so that the rows written before,
    // and those of a leader without keys, link as they did.
    if !origin.key.isEmpty { chain.add(origin.key) }
    chain.add(UInt64(patch.count))
    patch.withUnsafeBytes { chain.add($0) }
    return chain.hash
  }

  private mutating func add(_ value: UInt64) {
    var value = value
    for _ in 0..<8 {
      hash = (hash ^ (value & 0xff)) &* Self.prime
      value >>= 8
    }
  }

  private mutating func add(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      add(UInt64(bytes.count))
      add(UnsafeRawBufferPointer(bytes))
    }
  }

  private mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var hash = hash
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
    self.hash = hash
  }
}

extension DeltaChain {
  /// What a row of `sequence` that does not match the chain means.
  package static func mismatch(at sequence: UInt64) -> String {
    "the deltas row of sequence \(sequence) does not match the journal's hash chain: it (or "
      + "the row before it) changed after it was written, so the history is damaged from "
      + "sequence \(sequence) on; the history before it checks out"
  }
}
