
import Foundation
@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync
import Testing

/// A journal the leader refuses is left byte for byte as it was: the open writes nothing
/// before the history validates.
@Suite("Journal: a refused journal is left as it was")
struct JournalRefusalTests {
  @Test func aHistoryWithAGapIsRefusedUnchanged() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory, deltas: 8)
      try alterJournal(path, "DELETE FROM deltas WHERE sequence IN (5, 6)")
      let before = try contents(path)
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      let gap = JournalError.gap(path: path, after: 4, next: 7)
      #expect(throws: gap) { try journal.recover() }
      // A write before recover() checks the history the same way.
      #expect(throws: gap) { try journal.append(journalDeltas(9...9)) }
      #expect(throws: gap) { try journal.startNewEpoch() }
      journal.close()
      #expect(try contents(path) == before)
    }
  }

  @Test func deltasWithoutASnapshotAreNotGivenOne() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory, deltas: 2)
      try alterJournal(path, "DELETE FROM snapshots")
      let before = try contents(path)
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      let corrupt = JournalError.corrupt(
        path: path, detail: "it holds deltas up to sequence 2 but no snapshot")
      #expect(throws: corrupt) {
        try journal.writeSnapshot(sequence: 2, document: Array("{}".utf8), ledger: ClientLedger())
      }
      #expect(throws: corrupt) { try journal.compact() }
      journal.close()
      #expect(try contents(path) == before)
    }
  }

  @Test func aVersion1JournalWithAGapIsNotUpgraded() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory, deltas: 8)
      try downgradeToVersion1(path)
      try alterJournal(path, "DELETE FROM deltas WHERE sequence IN (5, 6)")
      let before = try contents(path)
      #expect(throws: JournalError.gap(path: path, after: 4, next: 7)) {
        _ = try Journal(path: path, configuration: .init(durability: .normal))
      }
      #expect(try contents(path) == before)
      #expect(
        throws: JournalError.incompatibleVersion(
          path: path, found: 1, supported: JournalSchema.version)
      ) {
        _ = try Journal(readingAt: path)
      }
    }
  }

  @Test func theSessionIsMarkedOpenOnceTheHistoryValidates() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory, deltas: 3)
      let journal = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(try sessionOpen(path) == 0)
      #expect(try journal.recover().deltas == journalDeltas(1...3))
      #expect(try sessionOpen(path) == 1)
      journal.close()
      #expect(try sessionOpen(path) == 0)
    }
  }
}

/// A journal in `directory`, created under `full` durability (so a session record written by a
/// `normal` open would show in the bytes), with a base snapshot and `deltas` deltas; closed.
private func closedJournal(in directory: String, deltas: UInt64) throws -> String {
  let journal = try makeJournal(in: directory, .init(durability: .full))
  try journal.append(journalDeltas(1...deltas))
  journal.close()
  return journal.path
}

/// The bytes of the file at `path`.
private func contents(_ path: String) throws -> Data {
  try #require(FileManager.default.contents(atPath: path))
}

/// The `session_open` record of the journal at `path`, read beside any leader.
private func sessionOpen(_ path: String) throws -> Int64? {
  try Journal(readingAt: path).withSession { (session) throws(JournalError) -> Int64? in
    try session.sqlite { () throws(SQLiteError) -> Int64? in
      try session.metaInteger(JournalSchema.sessionOpenKey)
    }
  }
}
