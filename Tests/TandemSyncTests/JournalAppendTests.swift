import Testing

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

@Suite("Journal: append")
struct JournalAppendTests {
  @Test func appendsABatchInOrderAndServesIt() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 3, sequence: 3)
      let commit = try journal.append(journalDeltas(1...3), ledger: ledgerChange(ledger, "c1"))
      #expect(commit.lastSequence == 3)
      #expect(journal.lastSequence == 3)
      #expect(try journal.deltas(from: 1) == journalDeltas(1...3))
      try journal.append(journalDeltas(4...4))
      #expect(try journal.deltas(from: 3) == journalDeltas(3...4))
      let stats = try journal.stats()
      #expect(stats.deltaCount == 4)
      #expect(stats.oldestSequence == 1)
      #expect(stats.clientCount == 1)
    }
  }

  @Test func keepsEveryFieldOfADelta() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      let deltas = [
        Delta(sequence: 1, origin: .leader, tag: "", patch: Array("[]".utf8)),
        Delta(
          sequence: 2, origin: Origin(client: "ünïcode-client", number: UInt64.max),
          tag: "app/rename", patch: [0, 1, 2, 255]),
      ]
      try journal.append(deltas)
      #expect(try journal.deltas(from: 1) == deltas)
    }
  }

  @Test func refusesABatchThatDoesNotContinueTheHistory() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...2))
      #expect(throws: JournalError.sequenceMismatch(expected: 3, got: 4)) {
        try journal.append(journalDeltas(4...5))
      }
      #expect(throws: JournalError.sequenceMismatch(expected: 4, got: 5)) {
        try journal.append([journalDelta(3), journalDelta(5)])
      }
      #expect(throws: JournalError.sequenceMismatch(expected: 3, got: 2)) {
        try journal.append(journalDeltas(2...3))
      }
      #expect(journal.lastSequence == 2)
      #expect(try journal.deltas(from: 1) == journalDeltas(1...2))
    }
  }

  @Test func refusesDeltasBeforeTheBaseSnapshot() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(throws: JournalError.noBaseSnapshot(path: path)) {
        try journal.append(journalDeltas(1...1))
      }
      #expect(try journal.shouldSnapshot)
    }
  }

  @Test func aFailingCommitStoresNothingOfTheBatch() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .full, maximumFileBytes: 256 * 1024)
      let journal = try makeJournal(in: directory, configuration)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 10, sequence: 10)
      try journal.append(journalDeltas(1...10), ledger: ledgerChange(ledger, "c1"))

      // 1,000 deltas of 1 KiB cannot fit in 256 KiB: SQLite fails part-way with SQLITE_FULL.
      let big = String(repeating: "x", count: 1024)
      let batch = (11...1010).map { journalDelta(UInt64($0), patch: big) }
      var failed = ledger
      failed.recordApplied(client: "c1", number: 1010, sequence: 1010)
      do throws(JournalError) {
        try journal.append(batch, ledger: ledgerChange(failed, "c1"))
        Issue.record("the batch should not fit")
      } catch {
        guard case .sqlite(_, let cause) = error else {
          Issue.record("expected an SQLite failure, got \(error)")
          return
        }
        #expect(cause.primaryCode == 13)  // SQLITE_FULL
        #expect(cause.call.contains("INSERT INTO deltas"))
      }
      #expect(journal.lastSequence == 10)
      #expect(try journal.deltas(from: 11) == [])
      // The journal stays usable, and what it recovers is the state before the batch.
      try journal.append(journalDeltas(11...11))
      journal.close()
      let reopened = try Journal(path: journal.path, configuration: configuration)
      let recovery = try reopened.recover()
      #expect(recovery.deltas == journalDeltas(1...11))
      #expect(recovery.ledger.entries["c1"]?.lastNumber == 10)
    }
  }

  @Test func storesABatchOfRejectionsOnly() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...1))
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 1, sequence: 1)
      ledger.recordRejected(
        client: "c1", number: 2, now: 1, rejection: Rejection(code: .refused, message: "no"))
      let commit = try journal.append([], ledger: ledgerChange(ledger, "c1"))
      #expect(commit.lastSequence == 1)
      #expect(try journal.recover().ledger.entries == ledger.entries)
    }
  }

  @Test func keepsARunOfNumbersABatchFailedWith() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...1))
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 1, sequence: 1)
      let before = ledger.entries["c1"]
      let failure = Rejection(code: .commitFailed, message: "disk")
      var after = ledger
      for number in 2...201 as ClosedRange<UInt64> {
        after.recordApplied(client: "c1", number: number, sequence: number)
      }
      ledger.revert(
        client: "c1", before: before, after: after.entries["c1"]!, undone: Array(2...201),
        rejection: failure, now: 1)
      try journal.append([], ledger: ledgerChange(ledger, "c1"))
      let recovered = try journal.recover().ledger
      #expect(recovered.entries == ledger.entries)
      #expect(recovered.entries["c1"]?.rejectedRuns.map(\.numbers) == [2...201])
      #expect(recovered.verdict(client: "c1", number: 2) == .rejected(failure))
    }
  }

  @Test func forgetsEvictedClients() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "a", number: 1, sequence: 1)
      ledger.recordApplied(client: "b", number: 1, sequence: 2)
      try journal.append(
        [journalDelta(1, client: "a", number: 1), journalDelta(2, client: "b", number: 1)],
        ledger: ledgerChange(ledger, "a", "b"))
      #expect(try journal.recover().ledger.forgottenThrough == 0)
      try journal.append([], forgetting: ["a"], forgottenThrough: 1)
      #expect(try journal.stats().forgottenThrough == 1)
      #expect(Set(try journal.recover().ledger.entries.keys) == ["b"])
      journal.close()
      let reopened = try makeJournal(in: directory)
      #expect(try reopened.recover().ledger.forgottenThrough == 1)
    }
  }

  @Test func aSnapshotRaisesTheForgottenThroughSequenceButNeverLowersIt() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...8))
      let ledger = ClientLedger(restoring: [:], forgottenThrough: 7)
      try journal.writeSnapshot(sequence: 8, document: Array("{}".utf8), ledger: ledger)
      #expect(try journal.recover().ledger.forgottenThrough == 7)
      try journal.writeSnapshot(sequence: 8, document: Array("{}".utf8), ledger: ClientLedger())
      #expect(try journal.recover().ledger.forgottenThrough == 7)
    }
  }

  @Test func saysWhenASnapshotIsDueByCount() throws {
    try withTemporaryDirectory { directory in
      let policy = Journal.SnapshotPolicy(deltaCount: 5, patchBytes: 1 << 30)
      let journal = try makeJournal(
        in: directory, .init(durability: .normal, snapshotPolicy: policy))
      #expect(try !journal.shouldSnapshot)
      #expect(try !journal.append(journalDeltas(1...4)).snapshotDue)
      #expect(try journal.append(journalDeltas(5...5)).snapshotDue)
      #expect(try journal.shouldSnapshot)
      try journal.writeSnapshot(sequence: 5, document: [], ledger: ClientLedger())
      #expect(try !journal.shouldSnapshot)
    }
  }

  @Test func saysWhenASnapshotIsDueByBytes() throws {
    try withTemporaryDirectory { directory in
      let policy = Journal.SnapshotPolicy(deltaCount: 1000, patchBytes: 100)
      let journal = try makeJournal(
        in: directory, .init(durability: .normal, snapshotPolicy: policy))
      let patch = String(repeating: "p", count: 60)
      #expect(try !journal.append([journalDelta(1, patch: patch)]).snapshotDue)
      #expect(try journal.append([journalDelta(2, patch: patch)]).snapshotDue)
    }
  }
}
