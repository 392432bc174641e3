
@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync
import Testing

/// A delta applying the actions of sequences `range` with one patch; actions alternate between
/// two clients and two tags, so that every field of every action is checked.
private func groupedDelta(_ range: ClosedRange<UInt64>) -> Delta {
  let actions = range.map { sequence in
    AppliedAction(
      origin: Origin(client: sequence % 2 == 0 ? "even" : "odd", number: sequence),
      tag: sequence % 2 == 0 ? "app/add" : "app/remove")
  }
  let patch = #"[{"op":"replace","path":"/n","value":\#(range.upperBound)}]"#
  return Delta(sequence: range.upperBound, actions: actions, patch: Array(patch.utf8))
}

/// Deltas of the given sequence ranges, one- and multi-action alike.
private func groupedDeltas(_ ranges: ClosedRange<UInt64>...) -> [Delta] {
  ranges.map(groupedDelta)
}

/// A journal in `directory` holding deltas 1 and 2...4 (and a snapshot at 4 if `snapshot`),
/// closed, damaged by `sql`, and opened again; with its path.
private func damagedJournal(
  in directory: String, snapshot: Bool = false, _ sql: String
) throws -> (Journal, String) {
  let path = directory + "/leader.journal"
  do {
    let journal = try makeJournal(in: directory)
    try journal.append(groupedDeltas(1...1, 2...4))
    if snapshot {
      try journal.writeSnapshot(sequence: 4, document: [1], ledger: ClientLedger())
    }
    journal.close()
  }
  try alterJournal(path, sql)
  return (try Journal(path: path, configuration: .init(durability: .normal)), path)
}

@Suite("Journal: deltas of several actions")
struct JournalGroupedDeltaTests {
  @Test func mixedDeltasRoundTripThroughRecoveryAndCatchUp() throws {
    try withTemporaryDirectory { directory in
      let deltas = groupedDeltas(1...1, 2...4, 5...5, 6...7, 8...10)
      do {
        let journal = try makeJournal(in: directory)
        #expect(try journal.append(Array(deltas[0...2])).lastSequence == 5)
        #expect(try journal.append(Array(deltas[3...4])).lastSequence == 10)
        journal.close()
      }
      let journal = try makeJournal(in: directory)
      #expect(journal.lastSequence == 10)
      let recovery = try journal.recover()
      #expect(recovery.deltas == deltas)
      #expect(recovery.sequence == 10)
      #expect(try journal.deltas(from: 1) == deltas)
      #expect(try journal.deltas(from: 2) == Array(deltas[1...]))
      #expect(try journal.deltas(from: 8) == [deltas[4]])
      #expect(try journal.deltas(from: 11) == [])
      let stats = try journal.stats()
      #expect(stats.deltaCount == 10)
      #expect(stats.patchCount == 5)
      #expect(stats.deltasSinceSnapshot == 10)
      #expect(try journal.verify().isSound)
    }
  }

  @Test func refusesADeltaWhoseFirstSequenceDoesNotContinueAndWritesNothing() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      let stored = groupedDeltas(1...3)
      try journal.append(stored)
      #expect(throws: JournalError.sequenceMismatch(expected: 4, got: 5)) {
        try journal.append(groupedDeltas(5...6))
      }
      #expect(throws: JournalError.sequenceMismatch(expected: 4, got: 3)) {
        try journal.append(groupedDeltas(3...4))
      }
      #expect(throws: JournalError.sequenceMismatch(expected: 6, got: 7)) {
        try journal.append(groupedDeltas(4...5, 7...8))
      }
      #expect(journal.lastSequence == 3)
      #expect(try journal.stats().deltaCount == 3)
      #expect(try journal.deltas(from: 1) == stored)
      #expect(try journal.recover().deltas == stored)
    }
  }

  @Test func catchUpServesOnlyFromTheFirstSequenceOfADelta() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      let deltas = groupedDeltas(1...1, 2...4, 5...5)
      try journal.append(deltas)
      #expect(try journal.deltas(from: 2) == Array(deltas[1...]))
      #expect(try journal.deltas(from: 3) == nil)
      #expect(try journal.deltas(from: 4) == nil)
      #expect(try journal.deltas(from: 5) == [deltas[2]])
      #expect(try journal.deltas(from: 6) == [])
      #expect(try journal.deltas(from: 7) == nil)
    }
  }

  @Test func compactionKeepsADeltaTheWindowEdgeFallsInside() throws {
    try withTemporaryDirectory { directory in
      // The edge is 10 - 4 = 6, inside the delta 4...8: that delta stays whole.
      let configuration = Journal.Configuration(durability: .normal, catchUpWindow: 4)
      let journal = try makeJournal(in: directory, configuration)
      let deltas = groupedDeltas(1...1, 2...3, 4...8, 9...9, 10...10)
      try journal.append(deltas)
      try journal.writeSnapshot(sequence: 10, document: [1], ledger: ClientLedger())
      let stats = try journal.stats()
      #expect(stats.oldestSequence == 4)
      #expect(stats.deltaCount == 7)
      #expect(try journal.deltas(from: 3) == nil)
      #expect(try journal.deltas(from: 4) == Array(deltas[2...]))
      #expect(try journal.deltas(from: 6) == nil)
      #expect(try journal.deltas(from: 9) == Array(deltas[3...]))
      #expect(try journal.recover().deltas == [])
      let more = groupedDeltas(11...13)
      try journal.append(more)
      #expect(try journal.recover().deltas == more)
      #expect(try journal.deltas(from: 4) == Array(deltas[2...]) + more)
      #expect(try journal.verify().isSound)
    }
  }

  @Test func compactionRemovesADeltaWholeWhenTheEdgeIsItsLastSequence() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(durability: .normal, catchUpWindow: 2)
      let journal = try makeJournal(in: directory, configuration)
      let deltas = groupedDeltas(1...1, 2...3, 4...8, 9...9, 10...10)
      try journal.append(deltas)
      try journal.writeSnapshot(sequence: 10, document: [1], ledger: ClientLedger())
      #expect(try journal.stats().oldestSequence == 9)
      #expect(try journal.deltas(from: 8) == nil)
      #expect(try journal.deltas(from: 9) == Array(deltas[3...]))
      #expect(try journal.verify().isSound)
    }
  }

  @Test func compactionStepsEndOnDeltaBoundaries() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .normal, catchUpWindow: 0, compactsAfterSnapshot: false)
      let journal = try makeJournal(in: directory, configuration)
      // A first delta longer than a 50,000-row step, then short ones.
      try journal.append(groupedDeltas(1...70_000, 70_001...70_005, 70_006...70_010))
      try journal.writeSnapshot(sequence: 70_010, document: [1], ledger: ClientLedger())
      var lines: [String] = []
      let compaction = try journal.compact { lines.append($0) }
      #expect(compaction.deltasRemoved == 70_010)
      #expect(
        lines == [
          "compact: removed 70000 of 70010 deltas",
          "compact: removed 70010 of 70010 deltas",
          "compact: removed 70010 deltas and 1 snapshots; checkpoint complete",
        ])
      #expect(try journal.stats().deltaCount == 0)
      #expect(try journal.deltas(from: 70_011) == [])
    }
  }

  @Test func theSnapshotPolicyCountsSequences() throws {
    try withTemporaryDirectory { directory in
      let configuration = Journal.Configuration(
        durability: .normal, snapshotPolicy: .init(deltaCount: 5))
      do {
        let journal = try makeJournal(in: directory, configuration)
        #expect(try journal.append(groupedDeltas(1...4)).snapshotDue == false)
        #expect(try journal.append(groupedDeltas(5...5)).snapshotDue)
        journal.close()
      }
      let journal = try makeJournal(in: directory, configuration)
      #expect(try journal.stats().deltasSinceSnapshot == 5)
      #expect(try journal.shouldSnapshot)
      _ = try journal.recover()
      #expect(try journal.stats().deltasSinceSnapshot == 5)
    }
  }

  @Test func aHistoryEndingInsideADeltaIsCorrupt() throws {
    try withTemporaryDirectory { directory in
      // The closing row loses its patch: rows 2...4 continue into a delta that never ends.
      let (journal, path) = try damagedJournal(
        in: directory, "UPDATE deltas SET patch = X'' WHERE sequence = 4")
      let error = JournalError.corrupt(
        path: path,
        detail: "the rows of sequences 2...4 have empty patches but no later row closes their "
          + "delta with its patch: the history ends inside a delta")
      #expect(throws: error) { try journal.recover() }
      #expect(throws: error) { try journal.deltas(from: 2) }
      #expect(throws: error) { try journal.deltas(from: 1) }
      let problems = try journal.verify().problems
      #expect(
        problems.first
          == "deltas: the rows of sequences 2...4 have empty patches but no later row closes "
          + "their delta: the history ends inside a delta")
      // The row changed after it was written, which the hash chain finds too.
      #expect(problems.dropFirst().first?.contains("sequence 4 does not match") == true)
    }
  }

  @Test func namesAGapInsideADelta() throws {
    try withTemporaryDirectory { directory in
      let (journal, path) = try damagedJournal(
        in: directory, "DELETE FROM deltas WHERE sequence = 3")
      #expect(throws: JournalError.gap(path: path, after: 2, next: 4)) {
        try journal.recover()
      }
    }
  }

  @Test func aSnapshotInsideADeltaIsCorrupt() throws {
    try withTemporaryDirectory { directory in
      let (journal, path) = try damagedJournal(
        in: directory, snapshot: true, "UPDATE snapshots SET sequence = 3 WHERE sequence = 4")
      #expect(
        throws: JournalError.corrupt(
          path: path,
          detail: "the latest snapshot, at sequence 3, falls inside a delta (the row of "
            + "sequence 3 has an empty patch)")
      ) { try journal.recover() }
      #expect(
        try journal.verify().problems == [
          "snapshot: the latest snapshot, at sequence 3, falls inside a delta (the row of "
            + "sequence 3 has an empty patch)"
        ])
    }
  }
}
