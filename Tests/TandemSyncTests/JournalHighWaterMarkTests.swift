import Foundation
import Testing

@testable import TandemJournal
@testable import TandemProtocol

@Suite("Journal: high-water mark")
struct JournalHighWaterMarkTests {
  /// Appends the deltas `range` to the journal in `directory` and closes it; returns the epoch.
  @discardableResult
  private func append(_ range: ClosedRange<UInt64>, in directory: String) throws -> Epoch {
    let journal = try makeJournal(in: directory, .init(durability: .full))
    try journal.append(journalDeltas(range))
    let epoch = journal.epoch
    journal.close()
    return epoch
  }

  private func reason(_ continuity: EpochContinuity) -> String? {
    guard case .minted(let reason) = continuity else { return nil }
    return reason
  }

  /// The mark in `file`; throws when there is none.
  private func mark(in file: HighWaterMarkFile) throws -> HighWaterMark {
    guard case .mark(let mark) = try file.read() else { throw NoMark() }
    return mark
  }

  private struct NoMark: Error {}

  /// Opens the journal at `path` for a leader and expects an epoch other than `epoch`, minted
  /// for a reason that contains `words`.
  private func expectNewEpoch(
    at path: String, otherThan epoch: Epoch, saying words: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let journal = try Journal(path: path, configuration: .init(durability: .full))
    #expect(journal.epoch != epoch, sourceLocation: sourceLocation)
    let said = reason(try journal.recover().epochContinuity)
    #expect(said?.contains(words) == true, "\(said ?? "kept")", sourceLocation: sourceLocation)
  }

  @Test func anOlderCopyPutBackMintsANewEpochAndSaysWhatWasLost() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      try append(1...3, in: directory)
      try FileManager.default.copyItem(atPath: path, toPath: directory + "/older")
      let epoch = try append(4...6, in: directory)
      // The backup of sequence 3 goes back over the journal of sequence 6.
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.copyItem(atPath: directory + "/older", toPath: path)
      let verification = try Journal(readingAt: path).verify()
      #expect(
        verification.problems == [
          "high-water mark: the journal ends at sequence 3, but sequence 6 was committed (a "
            + "lost or damaged write-ahead log, or an older copy of the file): sequences "
            + "4...6 are lost (3 sequences): a leader starting on this journal mints a new "
            + "epoch (followers resync)"
        ])
      let journal = try Journal(path: path, configuration: .init(durability: .full))
      let recovery = try journal.recover()
      #expect(recovery.epoch != epoch)
      #expect(reason(recovery.epochContinuity)?.contains("4...6 are lost (3 sequences)") == true)
      #expect(recovery.sequence == 3)
      // The new epoch's mark describes the history as it is: it continues from here.
      try journal.append(journalDeltas(4...4))
      journal.close()
      #expect(try Journal(readingAt: path).verify().isSound)
      let reopened = try Journal(path: path, configuration: .init(durability: .full))
      #expect(try reopened.recover().epochContinuity == .continued)
    }
  }

  @Test func aLostWriteAheadLogMintsANewEpoch() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      try append(1...2, in: directory)
      let journal = try makeJournal(in: directory, .init(durability: .full))
      try journal.append(journalDeltas(3...5))
      // What the database file holds while the last commits are in the log only: the log lost
      // (deleted after a crash) leaves this file behind.
      try FileManager.default.copyItem(atPath: path, toPath: directory + "/without-log")
      journal.close()
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.copyItem(atPath: directory + "/without-log", toPath: path)
      let reopened = try Journal(path: path, configuration: .init(durability: .full))
      let recovery = try reopened.recover()
      #expect(recovery.sequence < 5)
      #expect(reason(recovery.epochContinuity)?.contains("sequence 5 was committed") == true)
    }
  }

  @Test func aJournalWithoutItsMarkCannotBeShownCompleteAndMints() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try append(1...2, in: directory)
      try FileManager.default.removeItem(atPath: HighWaterMarkFile.path(forJournal: path))
      // A copy without its mark (a backup) is not damaged: verify has nothing to say.
      #expect(try Journal(readingAt: path).verify().isSound)
      try expectNewEpoch(at: path, otherThan: epoch, saying: "no high-water mark")
    }
  }

  @Test func aDamagedMarkMints() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try append(1...2, in: directory)
      let mark = HighWaterMarkFile.path(forJournal: path)
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mark)))
      bytes[20] ^= 1
      try Data(bytes).write(to: URL(fileURLWithPath: mark))
      #expect(try Journal(readingAt: path).verify().problems.count == 1)
      let journal = try Journal(path: path, configuration: .init(durability: .full))
      #expect(journal.epoch != epoch)
    }
  }

  @Test func aCrashDuringACommitKeepsTheEpochOnTheSameBootOnly() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try append(1...2, in: directory)
      let boot = currentBootIdentity() ?? "unknown"
      let file = try HighWaterMarkFile(journalPath: path)
      // The mark a commit of 3...4 wrote before a crash of the process cut it short.
      try file.write(
        HighWaterMark(epoch: epoch, committed: 2, intent: 4, chain: 0, boot: boot), sync: false)
      do {
        let journal = try Journal(path: path, configuration: .init(durability: .full))
        #expect(journal.epoch == epoch)
        #expect(try journal.recover().epochContinuity == .continued)
        journal.close()
      }
      // The same, written before the machine restarted: its last writes may have been lost
      // with the page cache, so it proves nothing.
      try file.write(
        HighWaterMark(epoch: epoch, committed: 2, intent: 4, chain: 0, boot: "an-earlier-boot"),
        sync: false)
      try expectNewEpoch(at: path, otherThan: epoch, saying: "restarted")
    }
  }

  @Test func aCleanCloseOnAnEarlierBootKeepsTheEpoch() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try append(1...2, in: directory)
      let file = try HighWaterMarkFile(journalPath: path)
      var mark = try self.mark(in: file)
      #expect(mark.clean)
      mark.boot = "an-earlier-boot"
      try file.write(mark, sync: false)
      let journal = try Journal(path: path, configuration: .init(durability: .full))
      #expect(journal.epoch == epoch)
      // An open session's mark is not clean.
      _ = try journal.recover()
      #expect(try !self.mark(in: file).clean)
    }
  }

  @Test func anotherHistoryAtTheSameSequenceMints() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let epoch = try append(1...2, in: directory)
      let file = try HighWaterMarkFile(journalPath: path)
      var mark = try self.mark(in: file)
      #expect(mark.epoch == epoch && mark.committed == 2 && mark.intent == 2 && mark.clean)
      mark.chain &+= 1
      try file.write(mark, sync: false)
      try expectNewEpoch(at: path, otherThan: Epoch(rawValue: 0), saying: "is not the one")
    }
  }

  @Test func theMarkFollowsEveryCommit() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let journal = try makeJournal(in: directory, .init(durability: .full))
      try journal.append(journalDeltas(1...3))
      let file = try HighWaterMarkFile(journalPath: path)
      let mark = try self.mark(in: file)
      #expect(mark.epoch == journal.epoch)
      #expect(mark.committed == 3 && mark.intent == 3)
      let renewed = try journal.startNewEpoch()
      #expect(
        try file.read()
          == .mark(
            HighWaterMark(
              epoch: renewed, committed: 3, intent: 3, chain: mark.chain, boot: mark.boot)))
      journal.close()
    }
  }
}
