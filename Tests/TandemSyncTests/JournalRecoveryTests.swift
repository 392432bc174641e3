import Foundation
import StatePatch
import Testing

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

@Suite("Journal: recovery")
struct JournalRecoveryTests {
  @Test func aNewJournalRecoversNothingUnderANewEpoch() throws {
    try withTemporaryDirectory { directory in
      let journal = try Journal(
        path: directory + "/leader.journal", configuration: .init(durability: .normal))
      let recovery = try journal.recover()
      #expect(recovery.snapshot == nil)
      #expect(recovery.deltas.isEmpty)
      #expect(recovery.sequence == 0)
      #expect(recovery.epochContinuity == .minted(reason: "the journal is new"))
      #expect(recovery.epoch.rawValue != 0)
    }
  }

  @Test func recoversTheSnapshotTheDeltasAfterItAndTheLedger() throws {
    try withTemporaryDirectory { directory in
      let path: String
      let epoch: Epoch
      var ledger = ClientLedger()
      let refused = Rejection(code: .refused, message: "not here")
      do {
        let journal = try makeJournal(in: directory)
        path = journal.path
        epoch = journal.epoch
        try journal.append(journalDeltas(1...3))
        ledger.recordApplied(client: "c1", number: 3, sequence: 3)
        ledger.recordRejected(client: "c2", number: 1, now: 3, rejection: refused)
        try journal.writeSnapshot(
          sequence: 3, document: Array(#"{"n":3}"#.utf8), ledger: ledger)
        ledger.recordApplied(client: "c1", number: 5, sequence: 5)
        try journal.append(journalDeltas(4...5), ledger: ledgerChange(ledger, "c1"))
        ledger.recordRejected(
          client: "c1", number: 6, now: 5,
          rejection: Rejection(code: .undecodable, message: "\"quoted\", ünïcode"))
        try journal.append([], ledger: ledgerChange(ledger, "c1"))
        journal.close()
      }
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      let recovery = try journal.recover()
      #expect(recovery.epoch == epoch)
      #expect(recovery.epochContinuity == .continued)
      let snapshot = try #require(recovery.snapshot)
      #expect(snapshot.sequence == 3)
      #expect(snapshot.hash == JSONValue.fnv1a(Array(#"{"n":3}"#.utf8)))
      #expect(snapshot.document == Array(#"{"n":3}"#.utf8))
      #expect(snapshot.ledger.entries["c1"]?.lastNumber == 3)
      #expect(snapshot.ledger.entries["c2"]?.rejections == [1: refused])
      #expect(recovery.deltas == journalDeltas(4...5))
      #expect(recovery.sequence == 5)
      #expect(recovery.ledger.entries == ledger.entries)
      #expect(journal.lastSequence == 5)
    }
  }

  @Test func recoversWithoutADeinitOrClose() throws {
    // A leader killed with kill -9 never closes the journal: its lock goes with its file
    // descriptor and SQLite recovers the log. Here the journal is abandoned without close().
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory, .init(durability: .full))
      try journal.append(journalDeltas(1...7))
      let copy = directory + "/copy.journal"
      for suffix in ["", "-wal", "-mark"] {
        try copyFile(journal.path + suffix, to: copy + suffix)
      }
      let recovered = try Journal(path: copy, configuration: .init(durability: .full)).recover()
      #expect(recovered.deltas == journalDeltas(1...7))
      #expect(recovered.epoch == journal.epoch)
    }
  }

  @Test func namesWhereTheDeltasHaveAGap() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      do {
        let journal = try makeJournal(in: directory)
        try journal.append(journalDeltas(1...8))
        journal.close()
      }
      try alterJournal(path, "DELETE FROM deltas WHERE sequence IN (5, 6)")
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(throws: JournalError.gap(path: path, after: 4, next: 7)) {
        try journal.recover()
      }
      let verification = try journal.verify()
      #expect(
        verification.problems == [
          "deltas: gap after sequence 4: the next is 7 (5...6 missing)"
        ])
      #expect(throws: JournalError.gap(path: path, after: 4, next: 7)) {
        try journal.deltas(from: 2)
      }
      // Row 6 is missing, so nothing proves that 7 starts a delta: a snapshot is needed.
      #expect(try journal.deltas(from: 7) == nil)
      #expect(try journal.deltas(from: 8) == journalDeltas(8...8))
    }
  }

  @Test func refusesDeltasWithoutASnapshot() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      do {
        let journal = try makeJournal(in: directory)
        try journal.append(journalDeltas(1...2))
        journal.close()
      }
      try alterJournal(path, "DELETE FROM snapshots")
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(
        throws: JournalError.corrupt(
          path: path, detail: "it holds deltas up to sequence 2 but no snapshot")
      ) {
        try journal.recover()
      }
      #expect(!(try journal.verify().isSound))
    }
  }

  @Test func aLedgerWhoseRejectionsDoNotReadIsCorrupt() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      do {
        let journal = try makeJournal(in: directory)
        var ledger = ClientLedger()
        ledger.recordRejected(
          client: "c1", number: 1, now: 0, rejection: Rejection(code: .refused, message: "no"))
        try journal.append([], ledger: ledgerChange(ledger, "c1"))
        journal.close()
      }
      try alterJournal(path, "UPDATE ledger SET rejections = x'5b7b5d5d'")  // [{}]
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      let verification = try journal.verify()
      #expect(
        verification.problems.contains { $0.hasPrefix("ledger: the rejections of client c1") })
      #expect {
        try journal.recover()
      } throws: { error in
        guard case .corrupt = error as? JournalError else { return false }
        return true
      }
    }
  }

  @Test func keepsTheEpochAcrossRestarts() throws {
    try withTemporaryDirectory { directory in
      let first = try makeJournal(in: directory, .init(durability: .full))
      let epoch = first.epoch
      first.close()
      let second = try makeJournal(in: directory, .init(durability: .full))
      #expect(second.epoch == epoch)
      #expect(try second.recover().epochContinuity == .continued)
      let renewed = try second.startNewEpoch()
      #expect(renewed != epoch)
      second.close()
      #expect(try makeJournal(in: directory).epoch == renewed)
    }
  }

  @Test func mintsANewEpochAfterAMachineRestartUnderNormalDurability() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try makeJournal(in: directory).epoch
      // What a leader with normal durability leaves when the machine loses power: the session
      // still marked open, under another boot of the machine.
      try alterJournal(
        path,
        "UPDATE meta SET value = 1 WHERE key = 'session_open';"
          + "UPDATE meta SET value = 'an-earlier-boot' WHERE key = 'session_boot'")
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(journal.epoch != epoch)
      guard case .minted = try journal.recover().epochContinuity else {
        Issue.record("expected a new epoch")
        return
      }
    }
  }

  @Test func keepsTheEpochAfterAProcessCrashUnderNormalDurability() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try makeJournal(in: directory).epoch
      // A crash of the process only: the session is still marked open, on this same boot.
      try alterJournal(path, "UPDATE meta SET value = 1 WHERE key = 'session_open'")
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(journal.epoch == epoch)
    }
  }

  @Test func keepsTheEpochAfterAMachineRestartUnderFullDurability() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try makeJournal(in: directory, .init(durability: .full)).epoch
      try alterJournal(
        path,
        "UPDATE meta SET value = 1 WHERE key = 'session_open';"
          + "UPDATE meta SET value = 'an-earlier-boot' WHERE key = 'session_boot'")
      let journal = try Journal(path: path, configuration: .init(durability: .full))
      #expect(journal.epoch == epoch)
    }
  }
}

/// Copies the file at `source` to `destination`, byte for byte, if it exists.
func copyFile(_ source: String, to destination: String) throws {
  guard let data = FileManager.default.contents(atPath: source) else { return }
  #expect(FileManager.default.createFile(atPath: destination, contents: data))
}
