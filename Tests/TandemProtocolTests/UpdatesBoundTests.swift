import Testing

@testable import TandemProtocol

/// The updates bound: the high-water mark it makes of a bytes bound, and how the leader keeps
/// each published message within it.
@Suite("Leader protocol: the updates bound in bytes")
struct UpdatesBoundTests {
  typealias F = LeaderFixture

  struct Row: Sendable, CustomTestStringConvertible {
    var bytes: Int
    var limit: Int32
    var messageBytes: Int
    var highWaterMark: Int32
    var testDescription: String { "\(bytes) bytes, at most \(limit) messages" }
  }

  @Test(
    "the high-water mark is as many largest messages as the bytes hold",
    arguments: [
      Row(bytes: 64 << 20, limit: 100_000, messageBytes: 128 << 10, highWaterMark: 512),
      Row(bytes: 64 << 20, limit: 100, messageBytes: 128 << 10, highWaterMark: 100),
      Row(bytes: 1 << 20, limit: 100_000, messageBytes: 128 << 10, highWaterMark: 8),
      Row(bytes: 200 << 10, limit: 100_000, messageBytes: 128 << 10, highWaterMark: 1),
      Row(bytes: 100 << 10, limit: 100_000, messageBytes: 100 << 10, highWaterMark: 1),
      Row(bytes: 4096, limit: 1, messageBytes: 4096, highWaterMark: 1),
      Row(bytes: 1 << 40, limit: 100_000, messageBytes: 128 << 10, highWaterMark: 100_000),
    ])
  func highWaterMark(_ row: Row) {
    let bound = UpdatesBound(maximumQueuedBytes: row.bytes, highWaterMark: row.limit)
    #expect(bound.messageBytes == row.messageBytes)
    #expect(bound.highWaterMark == row.highWaterMark)
    // The bound itself: a full queue of the largest messages fits in the bytes.
    #expect(Int(bound.highWaterMark) * bound.messageBytes <= row.bytes)
  }

  /// What a message really costs in a pipe: its frames' bytes and libzmq's slot per frame.
  static func cost(_ message: UpdateMessage) -> Int {
    message.frames.reduce(0) { $0 + $1.count + UpdatesBound.bytesPerFrame }
  }

  static let small = UpdatesBound(maximumQueuedBytes: 4096, highWaterMark: 1)

  @Test("deltas are grouped only as far as a message stays within the bound")
  func grouping() {
    var fixture = F(updates: Self.small)
    // Each costs 1,170 bytes (head, patch, two frames), the header 214: three fit in 4 KiB.
    let deltas = (1...5).map { F.delta(UInt64($0), bytes: 1000) }
    let effects = fixture.committed(sequence: 5, deltas: deltas)
    #expect(
      effects.actions == [
        .publish(.deltas(F.epoch, Array(deltas[0..<3]))),
        .publish(.deltas(F.epoch, Array(deltas[3..<5]))),
      ])
    for case .publish(let message) in effects {
      #expect(Self.cost(message) <= Self.small.messageBytes)
    }
  }

  @Test("a delta larger than one message is not published, and is kept for catch-ups")
  func oversized() {
    var fixture = F(updates: Self.small)
    let deltas = [F.delta(1, bytes: 100), F.delta(2, bytes: 5000), F.delta(3, bytes: 100)]
    let effects = fixture.committed(sequence: 3, deltas: deltas)
    #expect(
      effects.actions == [
        .publish(.delta(F.epoch, deltas[0])), .publish(.delta(F.epoch, deltas[2])),
      ])
    #expect(effects.counted == [.deltaUnpublished, .deltasPublished(3)])
    #expect(fixture.core.backlog.count == 3)
    let caughtUp = fixture.receive(.catchUp(F.epoch, from: 2))
    #expect(caughtUp.actions == [.reply(to: F.a, .deltas(F.epoch, Array(deltas[1...])))])
  }

  @Test(
    "the estimate of a message's cost is never below its frames'",
    arguments: [0, 1, 33, 34, 1000, 70_000])
  func estimate(patchBytes: Int) {
    let one = Delta(
      sequence: 9, origin: Origin(client: String(repeating: "k", count: 256), number: 9),
      tag: "a-long-tag", patch: Frame(repeating: 1, count: patchBytes))
    let two = Delta(sequence: 10, origin: .leader, tag: "", patch: Frame(repeating: 2, count: 3))
    let single = UpdatesBound.headerCost + UpdatesBound.cost(of: one)
    #expect(single >= Self.cost(.delta(F.epoch, one)))
    let group = single + UpdatesBound.cost(of: two)
    #expect(group >= Self.cost(.deltas(F.epoch, [one, two])))
  }

  @Test("a follower's catch-ups count the sequences it missed")
  func missedPerFollower() {
    var fixture = F(sequence: 5, recentDeltas: (1...5).map { F.delta(UInt64($0)) })
    fixture.welcome("c", on: F.a)
    _ = fixture.receive(.catchUp(F.epoch, from: 3))
    _ = fixture.receive(.catchUp(F.epoch, from: 6))  // in step: nothing missed
    _ = fixture.receive(.catchUp(F.epoch, from: 5), from: F.b)  // no follower's connection
    let record = fixture.core.followers.records["c"]
    #expect(record?.catchUps == 1)
    #expect(record?.missed == 3)
  }
}
