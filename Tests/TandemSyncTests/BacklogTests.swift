
@testable import TandemProtocol
@testable import TandemSync
import Testing

@Suite("Backlog")
struct BacklogTests {
  func delta(_ sequence: UInt64, bytes: Int = 10) -> Delta {
    Delta(
      sequence: sequence, origin: .leader, tag: "t", patch: Array(repeating: 0x20, count: bytes))
  }

  @Test func servesDeltasFromASequence() throws {
    var backlog = Backlog(maxCount: 10, maxBytes: 1000)
    for sequence in 1...5 { backlog.append(delta(UInt64(sequence))) }
    #expect(try #require(backlog.deltas(from: 3)).map(\.sequence) == [3, 4, 5])
    #expect(try #require(backlog.deltas(from: 6)).isEmpty)
    #expect(backlog.deltas(from: 7) == nil)
  }

  @Test func boundedByCount() {
    var backlog = Backlog(maxCount: 3, maxBytes: 1000)
    for sequence in 1...5 { backlog.append(delta(UInt64(sequence))) }
    #expect(backlog.count == 3)
    #expect(backlog.oldestSequence == 3)
    #expect(backlog.deltas(from: 2) == nil)
  }

  @Test func boundedByBytesButKeepsTheNewest() {
    var backlog = Backlog(maxCount: 100, maxBytes: 25)
    for sequence in 1...4 { backlog.append(delta(UInt64(sequence))) }
    #expect(backlog.count == 2)
    #expect(backlog.byteCount == 20)
    backlog.append(delta(5, bytes: 500))
    #expect(backlog.count == 1)
    #expect(backlog.oldestSequence == 5)
  }

  @Test func staysCorrectAcrossCompaction() throws {
    var backlog = Backlog(maxCount: 50, maxBytes: 1_000_000)
    for sequence in 1...5000 { backlog.append(delta(UInt64(sequence), bytes: 1)) }
    #expect(backlog.count == 50)
    #expect(try #require(backlog.deltas(from: 4990)).map(\.sequence) == Array(4990...5000))
  }

  @Test func servesMultiActionDeltasOnlyFromWhereTheyStart() throws {
    var backlog = Backlog(maxCount: 10, maxBytes: 1000)
    backlog.append(delta(1))
    let actions = Array(repeating: AppliedAction(origin: .leader, tag: "t"), count: 3)
    backlog.append(Delta(sequence: 4, actions: actions, patch: Array("[]".utf8)))
    backlog.append(delta(5))
    #expect(try #require(backlog.deltas(from: 2)).map(\.sequence) == [4, 5])
    #expect(backlog.deltas(from: 3) == nil)
    #expect(backlog.deltas(from: 4) == nil)
    #expect(try #require(backlog.deltas(from: 5)).map(\.sequence) == [5])
    #expect(try #require(backlog.deltas(from: 6)).isEmpty)
  }
}
