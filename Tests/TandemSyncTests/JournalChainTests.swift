import Foundation
import Testing

@testable import TandemJournal
@testable import TandemProtocol

@Suite("Journal: the hash chain over the deltas")
struct JournalChainTests {
  /// A closed journal of deltas 1...6 with a snapshot at 3, so recovery replays 4...6.
  private func closedJournal(in directory: String) throws -> String {
    let journal = try makeJournal(
      in: directory, .init(durability: .normal, compactsAfterSnapshot: false))
    try journal.append(journalDeltas(1...3))
    try journal.writeSnapshot(sequence: 3, document: Array("{}".utf8), ledger: ClientLedger())
    try journal.append(journalDeltas(4...6))
    let path = journal.path
    journal.close()
    return path
  }

  @Test func aChangedDigitInAReplayedDeltaIsFoundAndNamed() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory)
      #expect(try Journal(readingAt: path).verify().problems == [])
      // The patch of sequence 5 said 5; now it says 6, as damage at rest would leave it.
      try alterJournal(
        path,
        #"UPDATE deltas SET patch = CAST('[{"op":"replace","path":"/n","value":6}]' AS BLOB) "#
          + "WHERE sequence = 5")
      let problems = try Journal(readingAt: path).verify().problems
      #expect(problems.count == 1)
      #expect(
        problems.first?.contains("sequence 5 does not match the journal's hash chain") == true)
      #expect(problems.first?.contains("(1 row(s) do not match: 5)") == true)
      let leader = try Journal(path: path, configuration: .init(durability: .normal))
      #expect {
        try leader.recover()
      } throws: { error in
        guard case .corrupt(_, let detail) = error as? JournalError else { return false }
        return detail.contains("damaged from sequence 5 on")
      }
      // A damaged row before the snapshot is not replayed, but catch-up refuses to serve it.
      leader.close()
    }
  }

  @Test func aDamagedRowOfTheCatchUpWindowIsNotServed() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory)
      try alterJournal(path, "UPDATE deltas SET client = 'c2' WHERE sequence = 2")
      #expect(try Journal(readingAt: path).verify().problems.first?.contains("sequence 2") == true)
      let leader = try Journal(path: path, configuration: .init(durability: .normal))
      _ = try leader.recover()
      #expect(throws: JournalError.self) { try leader.deltas(from: 1) }
      #expect(try leader.deltas(from: 4)?.count == 3)
    }
  }

  @Test func aRemovedRowBreaksTheChain() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory)
      // Sequences renumbered to hide the gap still break the chain.
      try alterJournal(
        path,
        "DELETE FROM deltas WHERE sequence = 5; UPDATE deltas SET sequence = 5 WHERE sequence = 6")
      let problems = try Journal(readingAt: path).verify().problems
      #expect(problems.contains { $0.contains("sequence 5 does not match") })
    }
  }

  @Test func compactionKeepsTheOldestRowChecked() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory, .init(durability: .normal, catchUpWindow: 2))
      try journal.append(journalDeltas(1...10))
      try journal.writeSnapshot(sequence: 10, document: [1], ledger: ClientLedger())
      try journal.append(journalDeltas(11...12))
      #expect(try journal.stats().oldestSequence == 9)
      let path = journal.path
      journal.close()
      #expect(try Journal(readingAt: path).verify().problems == [])
      try alterJournal(path, "UPDATE deltas SET number = 99 WHERE sequence = 9")
      #expect(try Journal(readingAt: path).verify().problems.first?.contains("sequence 9") == true)
    }
  }

  @Test func aVersion4JournalIsUpgradedWithItsChain() throws {
    try withTemporaryDirectory { directory in
      let path = try closedJournal(in: directory)
      try downgradeToVersion4(path)
      let leader = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(try leader.recover().sequence == 6)
      try leader.append(journalDeltas(7...7))
      #expect(try leader.stats().formatVersion == JournalSchema.version)
      leader.close()
      #expect(try Journal(readingAt: path).verify().problems == [])
    }
  }
}
