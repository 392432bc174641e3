import Foundation
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// Damaged journals: `verify`, `salvage`, the leader's open and `recover()`, catch-up and
/// `stats()` give a verdict (a result or a thrown error) on every one, and never trap; what
/// `salvage` keeps of one always verifies.
///
/// Each case copies a small valid journal (a snapshot, grouped and single deltas from three
/// clients, rejections in the ledger, a log not yet checkpointed) and damages the copy one way,
/// chosen and seeded by the case's index, so that any case can be replayed alone. The number of
/// cases comes from `TANDEM_JOURNAL_FUZZ_FILES` (300 by default, 10,000 in
/// `scripts/checks/journal-fuzz`), the first index from `TANDEM_JOURNAL_FUZZ_FIRST`, the seed
/// from `TANDEM_JOURNAL_FUZZ_SEED`; with `TANDEM_JOURNAL_FUZZ_DIR` set, the case being run is
/// written to `progress` there first, so a crash leaves its index and damaged files behind.
@Suite("Journal: verify and recovery of damaged files")
struct JournalFuzzTests {
  /// On a thread of its own: seconds of synchronous SQLite work would otherwise hold one of
  /// the cooperative pool's two threads, which the other suites' tasks need meanwhile.
  @Test func noDamagedJournalMakesTheJournalTrap() async throws {
    let verdicts = try await ThreadTask { try Self.fuzz() }.value
    // What salvage keeps of a damaged file is a journal that verifies.
    let unsound = verdicts.filter { $0.key.hasSuffix(Self.unsoundSalvage) }
    #expect(unsound.isEmpty, "\(unsound)")
  }

  static let unsoundSalvage = "salvage NOT sound"

  private static func fuzz() throws -> [String: Int] {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["TANDEM_JOURNAL_FUZZ_FILES"].flatMap(Int.init) ?? 300
    let first = environment["TANDEM_JOURNAL_FUZZ_FIRST"].flatMap(Int.init) ?? 0
    let seed = environment["TANDEM_JOURNAL_FUZZ_SEED"].flatMap(UInt64.init) ?? 27
    let kept = environment["TANDEM_JOURNAL_FUZZ_DIR"]
    return try withTemporaryDirectory { scratch in
      let directory = kept ?? scratch
      let base = try FuzzBase(building: scratch + "/base")
      var verdicts: [String: Int] = [:]
      for index in first..<(first + count) {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ UInt64(index))
        let damage = base.damaged(&random)
        let path = directory + "/case.journal"
        damage.write(to: path)
        if kept != nil {
          try "\(index) \(damage.name)\n".write(
            toFile: directory + "/progress", atomically: false, encoding: .utf8)
        }
        for verdict in Self.verdicts(of: path) {
          verdicts["\(damage.name): \(verdict)", default: 0] += 1
        }
      }
      print("journal-fuzz: \(count) files (indexes \(first)..<\(first + count), seed \(seed))")
      for (verdict, times) in verdicts.sorted(by: { $0.key < $1.key }) {
        print("journal-fuzz:   \(times)\t\(verdict)")
      }
      return verdicts
    }
  }

  /// What verify, then a leader's open and recovery, say about the file at `path`.
  private static func verdicts(of path: String) -> [String] {
    var verdicts: [String] = []
    do {
      let verification = try Journal(readingAt: path).verify()
      verdicts.append(verification.isSound ? "verify sound" : "verify found problems")
    } catch {
      verdicts.append("verify refused: \(error.kind)")
    }
    do {
      let salvaged = path + ".salvaged"
      for suffix in ["", "-wal", "-shm", "-mark"] { _ = unlink(salvaged + suffix) }
      _ = try Journal.salvage(journalAt: path, to: salvaged)
      let copy = try Journal(readingAt: salvaged)
      defer { copy.close() }
      verdicts.append(try copy.verify().isSound ? "salvage sound" : Self.unsoundSalvage)
    } catch {
      verdicts.append("salvage refused: \(error.kind)")
    }
    do {
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      defer { journal.close() }
      let recovery = try journal.recover()
      _ = try journal.deltas(from: (recovery.snapshot?.sequence ?? 0) + 1)
      _ = try journal.deltas(from: 1)
      _ = try journal.stats()
      verdicts.append("recover sound")
    } catch {
      verdicts.append("recover refused: \(error.kind)")
    }
    return verdicts
  }
}

extension JournalError {
  /// The case's name, to count verdicts by kind.
  fileprivate var kind: String {
    switch self {
    case .locked: "locked"
    case .notAJournal: "not a journal"
    case .incompatibleVersion: "incompatible version"
    case .corrupt: "corrupt"
    case .gap: "gap"
    case .sequenceMismatch: "sequence mismatch"
    case .noBaseSnapshot: "no base snapshot"
    case .notFound: "not found"
    case .sqlite(_, let error): "sqlite \(error.primaryCode)"
    case .system(_, let call, _): "system \(call)"
    case .postgres(_, let error): "postgres \(error.sqlState ?? "client")"
    case .fenced: "fenced"
    case .restoreRefused: "restore refused"
    }
  }
}

/// The valid journal every case damages a copy of: its database file, and its write-ahead log
/// holding the commits not yet checkpointed.
private struct FuzzBase {
  let database: [UInt8]
  let log: [UInt8]
  static let pageSize = 4096

  init(building directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/leader.journal"
    let journal = try Journal(
      path: path, configuration: .init(durability: .normal, compactsAfterSnapshot: false))
    try journal.writeSnapshot(
      sequence: 0, document: Array(#"{"n":0}"#.utf8), ledger: ClientLedger())
    var ledger = ClientLedger()
    var sequence: UInt64 = 0
    for batch in 0..<40 {
      var deltas: [Delta] = []
      for index in 0..<3 {
        let client = "client-\(index + 1)"
        let number = ledger.lastNumber(of: client) + 1
        if batch % 7 == 3, index == 2 {
          ledger.recordRejected(
            client: client, number: number, now: sequence,
            rejection: Rejection(code: .commitFailed, message: "disk full"))
          continue
        }
        // Every third batch's first client sends a delta of three actions.
        let actions = batch % 3 == 0 && index == 0 ? 3 : 1
        var applied: [AppliedAction] = []
        for offset in 0..<actions {
          applied.append(
            AppliedAction(
              origin: Origin(client: client, number: number + UInt64(offset)), tag: "tick"))
          ledger.recordApplied(
            client: client, number: number + UInt64(offset), sequence: sequence + 1)
          sequence += 1
        }
        let patch = #"[{"op":"replace","path":"/n","value":\#(sequence * 1_000 + 7)}]"#
        deltas.append(Delta(sequence: sequence, actions: applied, patch: Array(patch.utf8)))
      }
      try journal.append(deltas, ledger: ledger.entries)
      if batch == 20 {
        try journal.writeSnapshot(
          sequence: sequence, document: Array(#"{"n":\#(sequence * 1_000 + 7)}"#.utf8),
          ledger: ledger)
        try journal.checkpoint()
      }
    }
    // The commits after the checkpoint are in the log only.
    database = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    log = try Array(Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
    journal.close()
    precondition(!log.isEmpty, "the fuzz base journal should have a log")
  }

  /// A damaged copy, one kind of damage chosen by `random`.
  func damaged(_ random: inout SplitMix64) -> FuzzCase {
    var database = database
    var log: [UInt8]? = log
    let name: String
    switch random.next(below: 12) {
    case 0:
      name = "truncated"
      database.removeLast(random.next(below: database.count))
    case 1:
      name = "cut by 1,000 bytes"
      database.removeLast(1_000)
      log = nil
    case 2:
      name = "bit flips"
      for _ in 0...random.next(below: 8) { flipBit(&database, &random) }
    case 3:
      name = "4,000 random bytes"
      let start = database.count / 4 + random.next(below: database.count / 2)
      for offset in start..<min(database.count, start + 4_000) {
        database[offset] = random.byte()
      }
    case 4:
      name = "zeroed page"
      let page = random.next(below: database.count / Self.pageSize)
      database.replaceSubrange(
        (page * Self.pageSize)..<((page + 1) * Self.pageSize),
        with: repeatElement(0, count: Self.pageSize))
    case 5:
      name = "swapped pages"
      let pages = database.count / Self.pageSize
      let (a, b) = (random.next(below: pages), random.next(below: pages))
      let first = Array(database[(a * Self.pageSize)..<((a + 1) * Self.pageSize)])
      database.replaceSubrange(
        (a * Self.pageSize)..<((a + 1) * Self.pageSize),
        with: database[(b * Self.pageSize)..<((b + 1) * Self.pageSize)])
      database.replaceSubrange((b * Self.pageSize)..<((b + 1) * Self.pageSize), with: first)
    case 6:
      name = "deleted log"
      log = nil
    case 7:
      name = "log bit flips"
      for _ in 0...random.next(below: 8) { flipBit(&log!, &random) }
    case 8:
      name = "log truncated"
      log!.removeLast(random.next(below: log!.count))
    case 9:
      name = "log random bytes"
      let start = random.next(below: log!.count)
      for offset in start..<min(log!.count, start + 64 + random.next(below: 4_000)) {
        log![offset] = random.byte()
      }
    case 10:
      name = "changed digit"
      let digits = database.indices.filter { (0x30...0x39).contains(database[$0]) }
      let at = digits[random.next(below: digits.count)]
      database[at] = database[at] == 0x39 ? 0x30 : database[at] + 1
    default:
      name = "random byte runs"
      for _ in 0...random.next(below: 4) {
        let start = random.next(below: database.count)
        for offset in start..<min(database.count, start + 1 + random.next(below: 64)) {
          database[offset] = random.byte()
        }
      }
    }
    return FuzzCase(name: name, database: database, log: log)
  }

  private func flipBit(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
    let at = random.next(below: bytes.count)
    bytes[at] ^= UInt8(1) << UInt8(random.next(below: 8))
  }
}

/// One damaged journal: its name and files.
private struct FuzzCase {
  let name: String
  let database: [UInt8]
  /// The write-ahead log beside it; nil for none.
  let log: [UInt8]?

  /// Writes the files at `path` (and `path-wal`), removing what an earlier case left there.
  func write(to path: String) {
    for suffix in ["-wal", "-shm", "-lock"] { unlink(path + suffix) }
    _ = FileManager.default.createFile(atPath: path, contents: Data(database))
    if let log { _ = FileManager.default.createFile(atPath: path + "-wal", contents: Data(log)) }
  }
}

/// A small seeded generator (SplitMix64), so each case is the same on every run.
private struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0).
  mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

  mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
