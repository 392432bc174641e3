
@testable import TandemJournal
@testable import TandemSync
import Testing

/// A closed journal in `directory` with a base snapshot and deltas 1...3; its path.
private func journalOfThreeDeltas(in directory: String) throws -> String {
  let journal = try makeJournal(in: directory)
  try journal.append(journalDeltas(1...3))
  journal.close()
  return journal.path
}

/// Whether `error` is ``JournalError/corrupt(path:detail:)`` with a detail containing `text`.
private func isCorruption(_ error: any Error, naming text: String) -> Bool {
  guard case .corrupt(_, let detail) = error as? JournalError else { return false }
  return detail.contains(text)
}

@Suite("Journal: sequences a journal cannot hold")
struct JournalSequenceRangeTests {
  /// A sequence stored negative (a UInt64 with its high bit set), or one with no next, is a
  /// corrupt journal: neither kind of open traps on it.
  @Test(arguments: ["deltas", "snapshots"], [Int64(-1), .max])
  func opensRefuseASequenceOutOfRange(table: String, sequence: Int64) throws {
    try withTemporaryDirectory { directory in
      let path = try journalOfThreeDeltas(in: directory)
      let row = table == "deltas" ? 2 : 0
      try alterJournal(path, "UPDATE \(table) SET sequence = \(sequence) WHERE sequence = \(row)")
      #expect {
        _ = try Journal(readingAt: path)
      } throws: { error in
        isCorruption(error, naming: "sequence \(sequence)")
      }
      #expect {
        _ = try Journal(path: path, configuration: .init(durability: .normal))
      } throws: { error in
        isCorruption(error, naming: "sequence \(sequence)")
      }
    }
  }

  @Test func verifyListsASequenceOutOfRangeStoredAfterTheOpen() throws {
    try withTemporaryDirectory { directory in
      let path = try journalOfThreeDeltas(in: directory)
      let reader = try Journal(readingAt: path)
      try alterJournal(path, "UPDATE deltas SET sequence = -1 WHERE sequence = 1")
      let verification = try reader.verify()
      #expect(
        verification.problems == [
          "sequences: the deltas table holds sequence -1, outside 0...9223372036854775806"
        ])
    }
  }
}
