import Testing

@testable import TandemProtocol

/// ``LeaderProtocol``'s answer to `CATCHUP`: in step, from the backlog, from the journal's
/// window, or `STALE` with the leader's own epoch and sequence.
@Suite("Leader protocol: catch-up")
struct LeaderCatchUpTests {
  typealias F = LeaderFixture

  static let deltas = (1...5).map { F.delta(UInt64($0), bytes: 10) }

  static func fixture(
    backlogCount: Int = 100, hasJournal: Bool = false, maximumCatchUpBytes: Int = 1 << 20
  ) -> F {
    F(
      sequence: 5, recentDeltas: deltas, hasJournal: hasJournal,
      maximumCatchUpBytes: maximumCatchUpBytes, backlogCount: backlogCount)
  }

  @Test("a replica in step gets no deltas")
  func inStep() {
    var fixture = Self.fixture()
    let effects = fixture.receive(.catchUp(F.epoch, from: 6))
    #expect(effects == [.count(.catchUpServed), .reply(to: F.a, .deltas(F.epoch, []))])
  }

  @Test("the backlog serves a catch-up it reaches back to")
  func fromBacklog() {
    var fixture = Self.fixture()
    let effects = fixture.receive(.catchUp(F.epoch, from: 3))
    #expect(effects.actions == [.reply(to: F.a, .deltas(F.epoch, Array(Self.deltas[2...])))])
    #expect(effects.counted == [.catchUpServed])
  }

  @Test("the journal's window serves what the backlog no longer holds")
  func fromJournal() {
    var fixture = Self.fixture(backlogCount: 2, hasJournal: true)
    let effects = fixture.receive(.catchUp(F.epoch, from: 2))
    #expect(effects == [.readJournal(from: 2, maximumBytes: 1 << 20, for: F.a)])
    var window: [LeaderEffect] = []
    let read = Array(Self.deltas[1...])
    fixture.core.journalWindow(.success(read), from: 2, for: F.a, into: &window)
    #expect(window.actions == [.reply(to: F.a, .deltas(F.epoch, read))])
    #expect(window.counted == [.journalCatchUp, .catchUpServed])
    var short: [LeaderEffect] = []
    fixture.core.journalWindow(.success(nil), from: 1, for: F.a, into: &short)
    #expect(short.actions == [.reply(to: F.a, .stale(F.epoch, sequence: 5))])
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var epoch: Epoch
    var from: UInt64
    var maximumCatchUpBytes: Int = 1 << 20
    var testDescription: String { name }
  }

  static let staleRows: [Row] = [
    Row(name: "another epoch", epoch: Epoch(rawValue: 1), from: 3),
    Row(name: "before the backlog, no journal", epoch: F.epoch, from: 1),
    Row(name: "ahead of the leader", epoch: F.epoch, from: 9),
    Row(
      name: "more bytes than a catch-up may hold", epoch: F.epoch, from: 3,
      maximumCatchUpBytes: 25),
  ]

  @Test("STALE carries the leader's own epoch and sequence", arguments: staleRows)
  func stale(_ row: Row) {
    var fixture = Self.fixture(
      backlogCount: row.from == 1 ? 3 : 100, maximumCatchUpBytes: row.maximumCatchUpBytes)
    let effects = fixture.receive(.catchUp(row.epoch, from: row.from))
    #expect(effects == [.count(.staleCatchUp), .reply(to: F.a, .stale(F.epoch, sequence: 5))])
  }

  @Test("a snapshot and a catch-up are answered from committed state")
  func needsCommit() {
    #expect(LeaderProtocol.needsCommit(before: .snapshot))
    #expect(LeaderProtocol.needsCommit(before: .catchUp(F.epoch, from: 1)))
    #expect(!LeaderProtocol.needsCommit(before: .dispatch(F.action(1))))
  }
}
