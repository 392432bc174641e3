import Foundation
import Testing

@testable import TandemJournal
@testable import TandemProtocol

@Suite("Journal: online backup")
struct JournalBackupTests {
  /// Moves `copy` over the journal at `path` the way the documented restore does: the leader
  /// stopped, the copy over the file, the old `-wal` and `-shm` removed, the `-mark` kept.
  private func restore(_ copy: String, over path: String) throws {
    let files = FileManager.default
    for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
      try files.removeItem(atPath: path + suffix)
    }
    try files.moveItem(atPath: copy, toPath: path)
  }

  @Test func aBackupOfAnOpenJournalIsASoundJournalOfItsHistory() throws {
    try withTemporaryDirectory { directory in
      let leader = try makeJournal(in: directory, .init(durability: .full))
      try leader.append(journalDeltas(1...5))
      let copy = directory + "/copy.journal"
      // Taken through a reader while the leader has the journal open, its last commits in the
      // log only.
      let backup = try Journal(readingAt: leader.path).backup(to: copy)
      #expect(backup.sequence == 5)
      #expect(backup.epoch == leader.epoch)
      #expect(try Journal(readingAt: copy).verify().isSound)
      #expect(throws: JournalError.self) { try Journal(readingAt: leader.path).backup(to: copy) }
      try leader.append(journalDeltas(6...8))
      leader.close()

      // Restored after the journal went on: a new epoch, and the log says what the copy lacks.
      try restore(copy, over: leader.path)
      let restored = try Journal(path: leader.path, configuration: .init(durability: .full))
      let recovery = try restored.recover()
      #expect(recovery.sequence == 5)
      #expect(recovery.epoch != backup.epoch)
      guard case .minted(let reason) = recovery.epochContinuity else {
        Issue.record("expected a new epoch")
        return
      }
      #expect(reason.contains("sequences 6...8 are lost (3 sequences)"))
      restored.close()
    }
  }

  @Test func aBackupRestoredWhereNoMarkIsMintsANewEpoch() throws {
    try withTemporaryDirectory { directory in
      let leader = try makeJournal(in: directory, .init(durability: .full))
      try leader.append(journalDeltas(1...3))
      let copy = directory + "/copy.journal"
      let backup = try Journal(readingAt: leader.path).backup(to: copy)
      leader.close()
      let restored = try Journal(path: copy, configuration: .init(durability: .full))
      #expect(try restored.recover().sequence == 3)
      #expect(restored.epoch != backup.epoch)
    }
  }
}
