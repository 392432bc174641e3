
@testable import TandemJournal
@testable import TandemSync
import Testing

@Suite("Journal: a snapshot damaged in a way that still reads")
struct JournalSnapshotHashTests {
  @Test func recoveryAndVerifyRefuseASnapshotThatDoesNotMatchItsHash() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...3))
      #expect(try journal.recover().snapshot?.document == Array("{}".utf8))
      journal.close()
      // Still JSON, and SQLite sees nothing wrong: only the stored hash tells.
      try alterJournal(journal.path, "UPDATE snapshots SET document = CAST('{\"n\":1}' AS BLOB)")
      #expect {
        _ = try Journal(path: journal.path, configuration: .init(durability: .normal)).recover()
      } throws: { error in
        guard case .corrupt(_, let detail) = error as? JournalError else { return false }
        return detail.contains("does not match its stored hash")
      }
      let verification = try Journal(readingAt: journal.path).verify()
      #expect(
        verification.problems == ["snapshot: the snapshot at 0 does not match its stored hash"])
    }
  }
}
