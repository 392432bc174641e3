import Testing

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

/// The journal's audit trail (format 7): the name of the key that sent each action, and the key
/// each client id is bound to, kept through recovery, snapshots and the hash chain.
@Suite("Journal: the key of each action and client id")
struct JournalKeyTests {
  private func keyedDelta(_ sequence: UInt64, key: String) -> Delta {
    Delta(
      sequence: sequence, origin: Origin(client: "c1", number: sequence, key: key), tag: "tick",
      patch: Array(#"[{"op":"replace","path":"/n","value":\#(sequence)}]"#.utf8))
  }

  @Test func eachActionKeepsItsKeyThroughRecovery() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      var ledger = ClientLedger()
      ledger.recordApplied(client: "c1", number: 2, sequence: 2, key: "alice")
      try journal.append(
        [keyedDelta(1, key: "alice"), keyedDelta(2, key: "alice")],
        ledger: ledgerChange(ledger, "c1"))
      try journal.append([journalDelta(3, client: "leader-own", number: 0)])
      let path = journal.path
      journal.close()

      let reader = try Journal(readingAt: path)
      let actions = try reader.recentActions(10)
      #expect(actions.map(\.origin.key) == ["alice", "alice", ""])
      #expect(try reader.verify().problems == [])
      let recovered = try Journal(path: path, configuration: .init(durability: .normal))
      let recovery = try recovered.recover()
      #expect(recovery.deltas.map(\.actions[0].origin.key) == ["alice", "alice", ""])
      #expect(recovery.ledger.entries["c1"]?.key == "alice")
      // A snapshot's copy of the ledger keeps the binding too.
      try recovered.writeSnapshot(
        sequence: 3, document: Array("{}".utf8), ledger: recovery.ledger)
      recovered.close()
      let again = try Journal(path: path, configuration: .init(durability: .normal))
      #expect(try again.recover().ledger.entries["c1"]?.key == "alice")
      again.close()
    }
  }

  @Test func aChangedKeyBreaksTheHashChain() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append([keyedDelta(1, key: "alice"), keyedDelta(2, key: "alice")])
      let path = journal.path
      journal.close()
      // Someone rewrites who sent the action: the audit trail must not accept it silently.
      try alterJournal(path, "UPDATE deltas SET key = 'mallory' WHERE sequence = 1")
      let problems = try Journal(readingAt: path).verify().problems
      #expect(problems.first?.contains("sequence 1") == true)
    }
  }

  @Test func aVersion6JournalIsUpgradedWithNoKeysKnown() throws {
    try withTemporaryDirectory { directory in
      let journal = try makeJournal(in: directory)
      try journal.append(journalDeltas(1...2))
      let path = journal.path
      journal.close()
      try downgradeToVersion6(path)
      let leader = try Journal(path: path, configuration: .init(durability: .normal))
      let recovery = try leader.recover()
      #expect(recovery.sequence == 2)
      #expect(recovery.deltas.allSatisfy { $0.actions[0].origin.key.isEmpty })
      try leader.append([keyedDelta(3, key: "bob")])
      #expect(try leader.stats().formatVersion == JournalSchema.version)
      leader.close()
      let reader = try Journal(readingAt: path)
      #expect(try reader.verify().problems == [])
      #expect(try reader.recentActions(1).first?.origin.key == "bob")
    }
  }
}
