
@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("Journal: compaction and catch-up")
struct JournalCompactionTests {
  @Test func catchUpServesWhatTheJournalHolds() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...5))
      #expect(try journal.deltas(from: 1) == journalDeltas(1...5))
      #expect(try journal.deltas(from: 5) == journalDeltas(5...5))
      #expect(try journal.deltas(from: 6) == [])
      #expect(try journal.deltas(from: 7) == nil)
      #expect(try journal.deltas(from: 0) == nil)
    }
  }

  @Test func keepsTheCatchUpWindowBehindTheLatestSnapshot() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(durability: .normal, catchUpWindow: 10)
      let journal = try makeJournal(in: directory, configuration)
      try journal.append(journalDeltas(1...100))
      try journal.writeSnapshot(sequence: 100, document: [1], ledger: ClientLedger())
      try journal.append(journalDeltas(101...105))
      let stats = try journal.stats()
      #expect(stats.oldestSequence == 91)
      #expect(stats.deltaCount == 15)
      #expect(stats.snapshotCount == 1)
      #expect(stats.snapshotSequence == 100)
      #expect(try journal.deltas(from: 90) == nil)
      #expect(try journal.deltas(from: 91) == journalDeltas(91...105))
      let recovery = try journal.recover()
      #expect(recovery.snapshot?.sequence == 100)
      #expect(recovery.deltas == journalDeltas(101...105))
      #expect(try journal.verify().isSound)
    }
  }

  @Test func compactsOnRequestWhenNotAfterEverySnapshot() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .normal, catchUpWindow: 0, compactsAfterSnapshot: false)
      let journal = try makeJournal(in: directory, configuration)
      try journal.append(journalDeltas(1...20))
      try journal.writeSnapshot(sequence: 20, document: [1], ledger: ClientLedger())
      #expect(try journal.stats().deltaCount == 20)
      #expect(try journal.stats().snapshotCount == 2)
      var lines: [String] = []
      let compaction = try journal.compact { lines.append($0) }
      #expect(compaction.deltasRemoved == 20)
      #expect(compaction.snapshotsRemoved == 1)
      #expect(compaction.checkpointed)
      #expect(lines.last?.hasPrefix("compact: removed 20 deltas and 1 snapshots") == true)
      #expect(try journal.stats().deltaCount == 0)
      #expect(try journal.deltas(from: 20) == nil)
      #expect(try journal.deltas(from: 21) == [])
      #expect(try journal.recover().sequence == 20)
      try journal.append(journalDeltas(21...21))
      #expect(try journal.recover().deltas == journalDeltas(21...21))
    }
  }

  @Test func compactsALongHistoryInStepsWithProgress() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .normal, catchUpWindow: 5_000, compactsAfterSnapshot: false)
      let journal = try makeJournal(in: directory, configuration)
      for start in stride(from: UInt64(1), through: 120_000, by: 10_000) {
        try journal.append(journalDeltas(start...(start + 9_999)))
      }
      try journal.writeSnapshot(sequence: 120_000, document: [1], ledger: ClientLedger())
      var lines: [String] = []
      let compaction = try journal.compact { lines.append($0) }
      #expect(compaction.deltasRemoved == 115_000)
      #expect(
        lines == [
          "compact: removed 50000 of 115000 deltas",
          "compact: removed 100000 of 115000 deltas",
          "compact: removed 115000 of 115000 deltas",
          "compact: removed 115000 deltas and 1 snapshots; checkpoint complete",
        ])
      #expect(try journal.stats().oldestSequence == 115_001)
      #expect(try journal.verify().isSound)
    }
  }

  @Test func checkpointsKeepTheLogBounded() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory, .init(durability: .normal, checkpointPages: 0))
      for start in stride(from: UInt64(1), through: 2_000, by: 100) {
        try journal.append(journalDeltas(start...(start + 99)))
      }
      #expect(try journal.stats().walBytes > 0)
      #expect(try journal.checkpoint(truncate: true))
      #expect(try journal.stats().walBytes == 0)
      #expect(try journal.recover().deltas.count == 2_000)
    }
  }

  @Test func reclaimsTheSpaceCompactionFreed() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(durability: .normal, catchUpWindow: 0)
      let journal = try makeJournal(in: directory, configuration)
      let patch = String(repeating: "z", count: 500)
      try journal.append((1...2_000).map { journalDelta(UInt64($0), patch: patch) })
      try journal.checkpoint()
      let before = try journal.stats().fileBytes
      try journal.writeSnapshot(sequence: 2_000, document: [1], ledger: ClientLedger())
      #expect(try journal.stats().freePages > 0)
      let shrunk = try journal.reclaimSpace()
      #expect(shrunk > 0)
      #expect(try journal.stats().fileBytes < before)
      #expect(try journal.stats().freePages == 0)
    }
  }

  @Test func snapshotsMustBeOfTheLastSequence() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...3))
      #expect(throws: JournalError.sequenceMismatch(expected: 3, got: 2)) {
        try journal.writeSnapshot(sequence: 2, document: [], ledger: ClientLedger())
      }
    }
  }

  @Test func aSnapshotReplacesTheLedger() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "a", number: 1, sequence: 1)
      ledger.recordApplied(client: "b", number: 1, sequence: 2)
      try journal.append(
        [journalDelta(1, client: "a", number: 1), journalDelta(2, client: "b", number: 1)],
        ledger: ledgerChange(ledger, "a", "b"))
      var evicted = ClientLedger(idleLimit: 1)
      evicted.recordApplied(client: "b", number: 1, sequence: 2)
      try journal.writeSnapshot(sequence: 2, document: [], ledger: evicted)
      let recovery = try journal.recover()
      #expect(recovery.ledger.entries == evicted.entries)
      #expect(recovery.snapshot?.ledger.entries == evicted.entries)
    }
  }
}
