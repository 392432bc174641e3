import StatePatch
import TandemProtocol

/// The journal's durable high-water mark: what the leader has committed, kept in the side file
/// `<journal>-mark`, apart from the database and its write-ahead log, so that a history cut
/// short (a lost or damaged log, an older copy put back) is noticed at the next open and never
/// continues under the same epoch. The article "High-water mark" explains why it is sound.
///
/// Each commit writes the record twice, to the page cache only (a crash of the process keeps
/// it; no commit waits for a sync of it): before SQLite's `COMMIT`, with ``intent`` the batch's
/// last sequence; after it, with ``committed`` raised to that sequence. The session's start
/// and a clean close write it synced, the latter marked ``clean``. A mark that is not clean,
/// from another boot of the machine, may have lost its last writes with the page cache, so
/// it proves nothing about the commits after the session started.
package struct HighWaterMark: Sendable, Equatable {
  /// The epoch of the history the mark describes.
  package var epoch: Epoch
  /// The newest sequence whose commit returned: acknowledged, or about to be.
  package var committed: UInt64
  /// The newest sequence a commit was started for (``committed`` between commits).
  package var intent: UInt64
  /// The hash chain's value (``DeltaChain``) at ``intent``.
  package var chain: UInt64
  /// Whether a clean close wrote the record (synced, the session over).
  package var clean: Bool
  /// The machine's boot when the record was written (see ``currentBootIdentity()``).
  package var boot: String

  /// The record's size in the file: magic, five 8-byte fields, 40 bytes of boot id, checksum.
  static let size = 8 + 40 + 40 + 8
  /// The first 8 bytes of every record.
  static let magic: [UInt8] = Array("TDMMARK1".utf8)

  /// The record's bytes: big-endian fields, the boot id padded with zeros, and an FNV-1a
  /// checksum of all that comes before it.
  var bytes: [UInt8] {
    var bytes = Self.magic
    bytes.reserveCapacity(Self.size)
    for value in [epoch.rawValue, committed, intent, chain, clean ? 1 : 0] {
      withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
    var bootBytes = Array(boot.utf8.prefix(40))
    bootBytes += [UInt8](repeating: 0, count: 40 - bootBytes.count)
    bytes += bootBytes
    withUnsafeBytes(of: JSONValue.fnv1a(bytes).bigEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// The record in `bytes`, or nil when they are not one whole record (wrong size, magic or
  /// checksum: a torn or damaged write).
  init?(bytes: [UInt8]) {
    guard bytes.count == Self.size, bytes.starts(with: Self.magic) else { return nil }
    func field(_ offset: Int) -> UInt64 {
      bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard JSONValue.fnv1a(Array(bytes[..<(Self.size - 8)])) == field(Self.size - 8) else {
      return nil
    }
    epoch = Epoch(rawValue: field(8))
    committed = field(16)
    intent = field(24)
    chain = field(32)
    clean = field(40) == 1
    boot = String(decoding: bytes[48..<88].prefix { $0 != 0 }, as: UTF8.self)
  }

  /// A record with the given values.
  init(
    epoch: Epoch, committed: UInt64, intent: UInt64, chain: UInt64, clean: Bool = false,
    boot: String
  ) {
    self.epoch = epoch
    self.committed = committed
    self.intent = intent
    self.chain = chain
    self.clean = clean
    self.boot = boot
  }

  /// What the mark says of a history of `epoch` that ends at `sequence` with the chain value
  /// `tip`, opened on the boot `boot`: nil when the history may continue under its epoch, or
  /// why it may not.
  func judge(
    epoch stored: Epoch, sequence: UInt64, tip: UInt64, boot current: String
  )
    -> HighWaterMark.Loss?
  {
    guard epoch == stored else {
      return Loss(
        lost: nil,
        reason: "the journal's epoch is not the one its high-water mark records (an older or "
          + "another journal was put in its place)")
    }
    if sequence < committed {
      return Loss(
        lost: committed - sequence,
        reason: "the journal ends at sequence \(sequence), but sequence \(committed) was "
          + "committed (a lost or damaged write-ahead log, or an older copy of the file): "
          + "sequences \(sequence + 1)...\(committed) are lost (\(committed - sequence) sequences)")
    }
    if sequence == intent, tip != chain {
      return Loss(
        lost: nil,
        reason: "the journal's history at sequence \(sequence) is not the one its high-water "
          + "mark records (another copy of the file was put in its place)")
    }
    if !clean, boot != current || current == "unknown" {
      return Loss(
        lost: nil,
        reason: "the machine restarted while a leader had the journal open (its high-water "
          + "mark, at sequence \(committed), was written on another boot and may have lost its "
          + "last writes with the page cache), so the journal cannot be shown complete")
    }
    return nil
  }

  /// History that may be lost, found by ``judge(epoch:sequence:tip:boot:)``.
  struct Loss: Sendable, Equatable {
    /// How many sequences were (or may have been) lost, when the mark tells.
    var lost: UInt64?
    /// Why the epoch cannot continue, in words for the log.
    var reason: String
  }
}
