
import Foundation
@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("Journal: verify beside a running leader")
struct JournalVerifyTests {
  @Test func aReaderVerifiesWhatTheLeaderAppendedSinceItOpened() throws {
    try withTemporaryDirectory { directory in
      let leader = try makeJournal(in: directory)
      try leader.append(journalDeltas(1...3))
      let reader = try Journal(readingAt: leader.path)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 4, sequence: 4)
      try leader.append([journalDelta(4)], ledger: ledgerChange(ledger, "c1"))
      #expect(try reader.verify().problems == [])
    }
  }

  @Test func aReaderVerifiesASnapshotAndCompactionSinceItOpened() throws {
    try withTemporaryDirectory { directory in
      let leader = try makeJournal(in: directory, .init(durability: .normal, catchUpWindow: 2))
      try leader.append(journalDeltas(1...3))
      try leader.writeSnapshot(sequence: 3, document: [3], ledger: ClientLedger())
      let reader = try Journal(readingAt: leader.path)
      try leader.append(journalDeltas(4...10))
      try leader.writeSnapshot(sequence: 10, document: [10], ledger: ClientLedger())
      #expect(try leader.stats().oldestSequence == 9)
      #expect(try reader.verify().problems == [])
    }
  }

  @Test func aFileCutShortByOneByteIsReported() throws {
    try withTemporaryDirectory { directory in
      let leader = try makeJournal(in: directory)
      try leader.append(journalDeltas(1...3))
      let path = leader.path
      leader.close()
      let bytes = fileSize(path)
      #expect(truncate(path, off_t(bytes - 1)) == 0)
      let problems = try Journal(readingAt: path).verify().problems
      #expect(problems.contains { $0.hasPrefix("file size: \(bytes - 1) bytes is not a whole") })
    }
  }
}
