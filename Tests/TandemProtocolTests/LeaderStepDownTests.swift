import Testing

@testable import TandemProtocol

/// An operator's `STEP-DOWN`: who may ask (an admin key, anyone in plain mode), how the leader
/// asks its leadership rules and answers with what they said, and the frames of the request
/// and of its answers. One row per caller and answer.
@Suite("Leader protocol: STEP-DOWN")
struct LeaderStepDownTests {
  typealias F = LeaderFixture

  static let lease = LeaseRecord(
    holder: "a:41:x", control: "ipc:///run/a-control", updates: "ipc:///run/a-updates", fencingEpoch: 7,
    remaining: .milliseconds(1200))

  /// What the connection gets in the end.
  enum Answer: Equatable, CustomStringConvertible {
    case handingOver(holder: String, fencingEpoch: UInt64)
    case error(ErrorCode, String)

    var description: String {
      switch self {
      case .handingOver(let holder, let epoch): "HANDING-OVER \(holder) \(epoch)"
      case .error(let code, _): "ERROR \(code)"
      }
    }
  }

  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var caller: Caller
    /// What the leadership rules answer, when the request reaches them.
    var rules: HandOver
    /// Whether the request reaches them (the caller may ask).
    var asks: Bool
    var answer: Answer
    var testDescription: String { "\(name) -> \(answer)" }
  }

  static let admin = LeaderAuthorizationTests.admin
  static let writer = LeaderAuthorizationTests.writer
  static let reader = LeaderAuthorizationTests.reader
  static let revoked = LeaderAuthorizationTests.revoked
  static let began = Answer.handingOver(holder: "a:41:x", fencingEpoch: 7)
  static let withoutLease = Answer.error(.noLease, LeaderProtocol.withoutLeaseMessage)
  static let notHolding = Answer.error(.noLease, LeaderProtocol.notHoldingMessage)

  static let rows: [Row] = [
    Row(name: "plain, holding", caller: .open, rules: .began(lease), asks: true, answer: began),
    Row(
      name: "plain, without a lease", caller: .open, rules: .withoutLease, asks: true,
      answer: withoutLease),
    Row(
      name: "plain, not holding now", caller: .open, rules: .notHolding, asks: true,
      answer: notHolding),
    Row(name: "admin, holding", caller: admin, rules: .began(lease), asks: true, answer: began),
    Row(
      name: "admin, without a lease", caller: admin, rules: .withoutLease, asks: true,
      answer: withoutLease),
    Row(
      name: "admin, not holding now", caller: admin, rules: .notHolding, asks: true,
      answer: notHolding),
    Row(
      name: "write key", caller: writer, rules: .began(lease), asks: false,
      answer: .error(.unauthorized, "key writer has the write role: STEP-DOWN needs admin")),
    Row(
      name: "read key", caller: reader, rules: .began(lease), asks: false,
      answer: .error(.unauthorized, "key reader has the read role: STEP-DOWN needs admin")),
    Row(
      name: "revoked key", caller: revoked, rules: .began(lease), asks: false,
      answer: .error(
        .unauthorized,
        "key gone is not in the leader's key store (it was revoked): ask the leader's operator "
          + "to add it again")),
  ]

  @Test("who may ask, and the answer for each of the rules' answers", arguments: rows)
  func table(row: Row) {
    var fixture = F()
    var effects = fixture.receive(.stepDown, caller: row.caller)
    let asked = effects.contains(.stepDown(for: F.a))
    #expect(asked == row.asks)
    if asked {
      #expect(effects == [.stepDown(for: F.a)])
      effects = []
      fixture.core.stepDownAnswered(row.rules, for: F.a, into: &effects)
    } else {
      #expect(effects.counted == [.unauthorized])
    }
    #expect(Self.answers(in: effects) == [row.answer])
  }

  @Test("a hand-over's answer waits behind the replies held for the batch in flight")
  func answerKeepsItsPlace() {
    var fixture = F()
    let action = ForwardedAction(client: "c", number: 1, tag: "add", payload: Frame(utf8: "{}"))
    _ = fixture.receive(.dispatch(action))
    _ = fixture.applied(action, result: .success(1))
    var effects = fixture.receive(.stepDown)
    #expect(effects == [.stepDown(for: F.a)])
    effects = []
    fixture.core.stepDownAnswered(.began(Self.lease), for: F.a, into: &effects)
    #expect(Self.answers(in: effects).isEmpty)
    let committed = fixture.committed(
      sequence: 1, deltas: [Delta(sequence: 1, origin: .leader, tag: "add", patch: [])])
    let sent = committed.compactMap { effect -> ControlReply? in
      guard case .reply(F.a, let reply) = effect else { return nil }
      return reply
    }
    #expect(
      sent == [
        .ack(client: "c", number: 1, F.epoch, sequence: 1),
        .handingOver(holder: "a:41:x", fencingEpoch: 7),
      ])
  }

  @Test func theRequestIsTheCommandAlone() throws {
    #expect(ControlRequest.stepDown.frames == [Frame(utf8: "STEP-DOWN")])
    #expect(try ControlRequest(frames: [Frame(utf8: "STEP-DOWN")]) == .stepDown)
    #expect(throws: ProtocolViolation.self) {
      try ControlRequest(frames: [Frame(utf8: "STEP-DOWN"), Frame(utf8: "now")])
    }
  }

  @Test func handingOverNamesTheHolderAndItsFencingEpoch() throws {
    let reply = ControlReply.handingOver(holder: "a:41:x", fencingEpoch: 7)
    #expect(
      reply.frames == [Frame(utf8: "HANDING-OVER"), Frame(utf8: "a:41:x"), Frame(bigEndian: 7)])
    #expect(try ControlReply(frames: reply.frames) == reply)
    let withoutLease = ControlReply.error(code: .noLease, message: "no")
    #expect(withoutLease.frames[1] == Frame(utf8: "no-lease"))
    #expect(try ControlReply(frames: withoutLease.frames) == withoutLease)
    for frames in [
      [Frame(utf8: "HANDING-OVER"), Frame(utf8: "a")],
      [Frame(utf8: "HANDING-OVER"), Frame(utf8: "a"), Frame([0, 0, 0, 7])],
      reply.frames + [Frame()],
    ] {
      #expect(throws: ProtocolViolation.self) { try ControlReply(frames: frames) }
    }
  }

  /// The answers `effects` send to connection a now (not those held until the batch commits,
  /// which the commit's effects send).
  static func answers(in effects: [LeaderEffect]) -> [Answer] {
    effects.compactMap { effect in
      let reply: ControlReply
      switch effect {
      case .reply(F.a, let sent): reply = sent
      default: return nil
      }
      switch reply {
      case .handingOver(let holder, let epoch):
        return .handingOver(holder: holder, fencingEpoch: epoch)
      case .error(let code, let message): return .error(code, message)
      default: return nil
      }
    }
  }
}
