import Testing

@testable import TandemProtocol

/// The limits a leader announces in `WELCOME` bound what the outbox queues: an action the
/// leader would refuse at every resend is refused at `send`, and nothing is queued.
@Suite("Outbox: the leader's announced limits")
struct OutboxLimitTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var limits: ProtocolLimits
    var tag: String
    var payloadBytes: Int
    var error: OutboxRefusal?
    var testDescription: String { name }
  }

  static let small = ProtocolLimits(
    maximumPayloadBytes: 100, maximumTagBytes: 8, maximumClientIDBytes: 256)

  static let rows: [Row] = [
    Row(name: "within both limits", limits: small, tag: "t.inc", payloadBytes: 100, error: nil),
    Row(
      name: "a payload above the leader's", limits: small, tag: "t.inc", payloadBytes: 101,
      error: .actionTooLarge(bytes: 101, limit: 100)),
    Row(
      name: "a tag above the leader's", limits: small, tag: "t.increment", payloadBytes: 2,
      error: .tagTooLong("t.increment", limit: 8)),
    Row(
      name: "the protocol's least before any WELCOME", limits: .standard,
      tag: String(repeating: "x", count: 257), payloadBytes: 2,
      error: .tagTooLong(String(repeating: "x", count: 257), limit: 256)),
  ]

  @Test(arguments: rows)
  func enqueue(_ row: Row) throws {
    var outbox = Outbox(capacity: 10)
    outbox.leaderLimits = row.limits
    let payload = Frame(repeating: UInt8(ascii: "1"), count: row.payloadBytes)
    if let expected = row.error {
      #expect(throws: expected) { try outbox.enqueue(tag: row.tag, payload: payload) }
      #expect(outbox.entries.isEmpty)
    } else {
      _ = try outbox.enqueue(tag: row.tag, payload: payload)
      #expect(outbox.entries.count == 1)
    }
  }
}
