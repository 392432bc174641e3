import Testing

@testable import TandemProtocol

/// ``LeaderProtocol``'s authorization rules: what each role's key may ask, before any reducer
/// runs, and which key a client id belongs to. One row per request and caller.
@Suite("Leader protocol: authorization by key role")
struct LeaderAuthorizationTests {
  typealias F = LeaderFixture

  static let reader = Caller.key(name: "reader", grant: KeyGrant(name: "reader", role: .read))
  static let writer = Caller.key(name: "writer", grant: KeyGrant(name: "writer", role: .write))
  static let tagged = Caller.key(
    name: "tagged", grant: KeyGrant(name: "tagged", role: .write, tags: ["add"]))
  static let admin = Caller.key(name: "admin", grant: KeyGrant(name: "admin", role: .admin))
  static let revoked = Caller.key(name: "gone", grant: nil)

  /// What the leader does first with a request: `.allowed` when it goes on as without keys,
  /// else the refusal.
  enum Outcome: Equatable, CustomStringConvertible {
    case allowed
    case error(ErrorCode)
    case reject(Rejection.Code)

    var description: String {
      switch self {
      case .allowed: "allowed"
      case .error(let code): "ERROR \(code)"
      case .reject(let code): "REJECT \(code.rawValue)"
      }
    }
  }

  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var caller: Caller
    var request: ControlRequest
    var outcome: Outcome
    var testDescription: String { "\(name) -> \(outcome)" }
  }

  static let hello = ControlRequest.hello(
    version: ControlRequest.version, client: "c", fingerprint: F.fingerprint)
  static func dispatch(tag: String = "add") -> ControlRequest {
    .dispatch(
      ForwardedAction(client: "c", number: 1, tag: tag, payload: Frame(utf8: "{}")))
  }

  static let rows: [Row] = [
    Row(name: "open HELLO", caller: .open, request: hello, outcome: .allowed),
    Row(name: "open STATS", caller: .open, request: .stats, outcome: .allowed),
    Row(name: "open DISPATCH", caller: .open, request: dispatch(), outcome: .allowed),
    Row(
      name: "open RELOAD-KEYS", caller: .open, request: .reloadKeys, outcome: .error(.unauthorized)),
    Row(name: "read HELLO", caller: reader, request: hello, outcome: .allowed),
    Row(name: "read SNAPSHOT", caller: reader, request: .snapshot, outcome: .allowed),
    Row(
      name: "read CATCHUP", caller: reader, request: .catchUp(F.epoch, from: 1),
      outcome: .allowed),
    Row(
      name: "read PING", caller: reader, request: .ping(client: "c", sequence: 0), outcome: .allowed
    ),
    Row(name: "read STATS", caller: reader, request: .stats, outcome: .error(.unauthorized)),
    Row(
      name: "read DISPATCH", caller: reader, request: dispatch(), outcome: .reject(.unauthorized)),
    Row(name: "write DISPATCH", caller: writer, request: dispatch(), outcome: .allowed),
    Row(name: "write STATS", caller: writer, request: .stats, outcome: .error(.unauthorized)),
    Row(
      name: "write RELOAD-KEYS", caller: writer, request: .reloadKeys,
      outcome: .error(.unauthorized)),
    Row(name: "tagged DISPATCH add", caller: tagged, request: dispatch(), outcome: .allowed),
    Row(
      name: "tagged DISPATCH other", caller: tagged, request: dispatch(tag: "other"),
      outcome: .reject(.unauthorized)),
    Row(name: "admin STATS", caller: admin, request: .stats, outcome: .allowed),
    Row(name: "admin RELOAD-KEYS", caller: admin, request: .reloadKeys, outcome: .allowed),
    Row(name: "open STEP-DOWN", caller: .open, request: .stepDown, outcome: .allowed),
    Row(
      name: "write STEP-DOWN", caller: writer, request: .stepDown, outcome: .error(.unauthorized)),
    Row(name: "admin STEP-DOWN", caller: admin, request: .stepDown, outcome: .allowed),
    Row(name: "admin DISPATCH", caller: admin, request: dispatch(), outcome: .allowed),
    Row(name: "revoked HELLO", caller: revoked, request: hello, outcome: .error(.unauthorized)),
    Row(
      name: "revoked SNAPSHOT", caller: revoked, request: .snapshot, outcome: .error(.unauthorized)),
    Row(
      name: "revoked DISPATCH", caller: revoked, request: dispatch(), outcome: .error(.unauthorized)
    ),
  ]

  @Test("each role may make its requests and no others", arguments: rows)
  func table(row: Row) {
    var fixture = F()
    let effects = fixture.receive(row.request, caller: row.caller)
    #expect(Self.outcome(of: effects) == row.outcome)
    if row.outcome != .allowed { #expect(effects.counted.contains(.unauthorized)) }
  }

  @Test("a refused dispatch uses its number up, and is refused again when resent")
  func rejectionUsesNumber() {
    var fixture = F()
    _ = fixture.receive(Self.hello, caller: Self.reader)
    let first = fixture.receive(Self.dispatch(), caller: Self.reader)
    #expect(Self.outcome(of: first) == .reject(.unauthorized))
    #expect(fixture.ledger.ledger.lastNumber(of: "c") == 1)
    let again = fixture.receive(Self.dispatch(), caller: Self.reader)
    #expect(Self.outcome(of: again) == .reject(.unauthorized))
    #expect(again.counted == [.duplicate])
  }

  @Test("no action is applied for a refused dispatch: no reducer runs")
  func noApply() {
    var fixture = F()
    let effects = fixture.receive(Self.dispatch(tag: "other"), caller: Self.tagged)
    #expect(!effects.contains { if case .apply = $0 { true } else { false } })
  }

  @Test("a client id belongs to the key that first used it")
  func clientIDBinding() {
    var fixture = F()
    _ = fixture.receive(Self.hello, caller: Self.writer)
    #expect(fixture.ledger.ledger.entries["c"]?.key == "writer")
    // Another key: refused at HELLO and at dispatch, before any verdict.
    let hello = fixture.receive(Self.hello, from: F.b, caller: Self.admin)
    #expect(hello.errorCode == .unauthorized)
    let dispatch = fixture.receive(Self.dispatch(), from: F.b, caller: Self.admin)
    #expect(dispatch.errorCode == .unauthorized)
    #expect(fixture.ledger.ledger.lastNumber(of: "c") == 0)
    // The same key from another connection is the restart case: welcomed.
    let again = fixture.receive(Self.hello, from: F.b, caller: Self.writer)
    #expect(again.errorCode == nil)
  }

  @Test("a client id first used by a dispatch is bound by its recorded action")
  func bindingByDispatch() {
    var ledger = ClientLedger()
    ledger.recordApplied(client: "d", number: 1, sequence: 1, key: "writer")
    #expect(ledger.entries["d"]?.key == "writer")
    #expect(ledger.owner(of: "d", otherThan: "admin") == "writer")
    #expect(ledger.owner(of: "d", otherThan: "writer") == nil)
    // Without keys nothing is checked.
    #expect(ledger.owner(of: "d", otherThan: "") == nil)
  }

  static func outcome(of effects: [LeaderEffect]) -> Outcome {
    for effect in effects {
      switch effect {
      case .reply(_, .error(let code, _)), .replyAfterCommit(_, .error(let code, _), _):
        return .error(code)
      case .reply(_, .reject(_, _, let rejection)),
        .replyAfterCommit(_, .reject(_, _, let rejection), _):
        return .reject(rejection.code)
      default: continue
      }
    }
    return .allowed
  }
}
