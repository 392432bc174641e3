@testable import TandemProtocol

/// A ``LeaderProtocol`` with a ledger of its own, fed inputs one at a time: each input returns
/// the effects it produced, and an `apply` effect is answered only when a test says how
/// (``applied(_:result:)``), as the shell reports the store's outcome.
struct LeaderFixture {
  static let epoch = Epoch(rawValue: 0xE7)
  static let fingerprint = "fp-1"
  static let start = ContinuousClock.now
  static let a = Frame(utf8: "connection-a")
  static let b = Frame(utf8: "connection-b")

  var core: LeaderProtocol
  var ledger: StandaloneLedger
  /// The time of the next input, as an offset from ``start``.
  var clock: Duration = .zero

  init(
    sequence: UInt64 = 0, recentDeltas: [Delta] = [], hasJournal: Bool = false,
    maximumCatchUpBytes: Int = 1 << 20, maximumFollowers: Int = 100, backlogCount: Int = 100,
    updates: UpdatesBound? = nil
  ) {
    var configuration = LeaderProtocol.Configuration(
      fingerprint: Self.fingerprint, heartbeatMilliseconds: 1000, updatesEndpoint: "tcp://u:1",
      limits: .standard, maximumCatchUpBytes: maximumCatchUpBytes, hasJournal: hasJournal,
      maximumFollowers: maximumFollowers, backlogCount: backlogCount, backlogBytes: 1 << 20)
    if let updates { configuration.updates = updates }
    core = LeaderProtocol(
      epoch: Self.epoch, sequence: sequence, configuration: configuration,
      recentDeltas: recentDeltas)
    ledger = StandaloneLedger(sequence: sequence)
  }

  var now: ContinuousClock.Instant { Self.start + clock }

  mutating func receive(
    _ request: ControlRequest, from connection: Frame = a, caller: Caller = .open
  ) -> [LeaderEffect] {
    var effects: [LeaderEffect] = []
    core.receive(
      request, from: connection, caller: caller, now: now, ledger: &ledger, into: &effects)
    return effects
  }

  /// Reports the outcome of applying `forwarded` from `connection`; a success records it in
  /// the ledger at the next sequence, as the store's drainer does.
  mutating func applied(
    _ forwarded: ForwardedAction, from connection: Frame = a, quietly: Bool = false,
    result: Result<UInt64, Rejection>
  ) -> [LeaderEffect] {
    if case .success(let sequence) = result {
      ledger.sequence = sequence
      ledger.ledger.recordApplied(
        client: forwarded.client, number: forwarded.number, sequence: sequence)
    }
    var effects: [LeaderEffect] = []
    core.applied(
      forwarded, from: connection, quietly: quietly, result: result, ledger: &ledger,
      into: &effects)
    return effects
  }

  mutating func committed(sequence: UInt64, deltas: [Delta]) -> [LeaderEffect] {
    var effects: [LeaderEffect] = []
    core.committed(sequence: sequence, deltas: deltas, into: &effects)
    return effects
  }

  /// A `HELLO` of `client` from `connection` with `generation`, welcomed: the generation handed.
  @discardableResult
  mutating func welcome(
    _ client: String = "c", generation: UInt64 = 0, on connection: Frame = a
  )
    -> UInt64
  {
    for effect in receive(
      .hello(
        version: ControlRequest.version, client: client,
        fingerprint: Self.fingerprint, generation: generation), from: connection)
    {
      if case .reply(_, .welcome(_, _, _, _, _, _, let handed, _, _)) = effect { return handed }
    }
    return 0
  }

  static func action(
    _ number: UInt64, client: String = "c", generation: UInt64 = 5
  ) -> ForwardedAction {
    ForwardedAction(
      client: client, number: number, generation: generation, tag: "add", payload: Frame(utf8: "{}")
    )
  }

  static func delta(_ sequence: UInt64, bytes: Int = 2) -> Delta {
    Delta(
      sequence: sequence, origin: Origin(client: "c", number: sequence), tag: "add",
      patch: Frame(repeating: 0x20, count: bytes))
  }
}

extension Array where Element == LeaderEffect {
  /// The effects without logs and counts: what goes on the wire or to the store.
  var actions: [LeaderEffect] {
    filter {
      switch $0 {
      case .log, .count: false
      default: true
      }
    }
  }

  /// The counted events.
  var counted: [LeaderEvent] {
    compactMap {
      if case .count(let event) = $0 { return event }
      return nil
    }
  }

  /// The code of the only `ERROR` reply among them (sent now or held).
  var errorCode: ErrorCode? {
    for effect in self {
      switch effect {
      case .reply(_, .error(let code, _)), .replyAfterCommit(_, .error(let code, _), _):
        return code
      default: continue
      }
    }
    return nil
  }
}
