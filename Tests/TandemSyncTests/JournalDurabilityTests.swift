
@testable import TandemJournal
@testable import TandemSync
import Testing

@Suite("Journal: durability settings")
struct JournalDurabilityTests {
  /// The value of `pragma` on the journal's own connection.
  func pragma(_ journal: Journal, _ pragma: String) throws -> String? {
    try journal.withSession { (session) throws(SQLiteError) -> String? in
      try session.connection.text("PRAGMA \(pragma)")
    }
  }

  @Test func fullSyncsEveryCommitOfTheLog() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory, .init(durability: .full))
      #expect(try pragma(journal, "journal_mode") == "wal")
      #expect(try pragma(journal, "synchronous") == "2")  // FULL
      #expect(try journal.stats().durability == .full)
    }
  }

  @Test func normalSyncsOnlyAtCheckpoints() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory, .init(durability: .normal))
      #expect(try pragma(journal, "journal_mode") == "wal")
      #expect(try pragma(journal, "synchronous") == "1")  // NORMAL
      #expect(try journal.stats().durability == .normal)
    }
  }

  @Test func logAndSizeSettingsAreApplied() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .full, checkpointPages: 500, walSizeLimit: 1 << 20,
        maximumFileBytes: 4096 * 1000)
      let journal = try makeJournal(in: directory, configuration)
      #expect(try pragma(journal, "wal_autocheckpoint") == "500")
      #expect(try pragma(journal, "journal_size_limit") == "\(1 << 20)")
      #expect(try pragma(journal, "max_page_count") == "1000")
      #expect(try pragma(journal, "auto_vacuum") == "2")  // INCREMENTAL
    }
  }

  @Test func offOpensNoFile() {
    #expect(Durability.off.fileSetting == nil)
    #expect(Durability.full.fileSetting?.synchronousPragma == "FULL")
    #expect(Durability.normal.fileSetting?.synchronousPragma == "NORMAL")
  }
}
