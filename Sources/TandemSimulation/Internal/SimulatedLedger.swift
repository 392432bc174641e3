import TandemProtocol

/// The leader's exactly-once ledger in the simulation, as the Swift leader's shared history
/// keeps it: the ledger at the recorded sequence, and the clients whose entries changed since
/// the last commit (journaled with it). A ``SimulationConfiguration/Mutation`` can break the
/// takeover rule here.
struct SimulatedLedger: LeaderLedger {
  var ledger: ClientLedger
  /// The sequence of the newest recorded action.
  var sequence: UInt64
  var changed: Set<String> = []
  var random: SimulationRandom
  let answersAcrossTakeover: Bool

  mutating func hello(client: String, generation: UInt64, key: String) -> ClientLedger.Greeting {
    let fresh = UInt64.random(in: 1...(1 << 32), using: &random)
    let before = ledger.entries[client]?.generation
    var greeting = ledger.hello(
      client: client, generation: generation, now: sequence, fresh: fresh, key: key)
    if answersAcrossTakeover, case .superseded = greeting {
      greeting = ledger.hello(client: client, generation: 0, now: sequence, fresh: fresh, key: key)
    }
    if ledger.entries[client]?.generation != before { changed.insert(client) }
    return greeting
  }

  mutating func judge(_ forwarded: ForwardedAction, key: String) -> ClientLedger.Judgement {
    var judgement = ledger.judge(forwarded, now: sequence, key: key)
    if answersAcrossTakeover, case .superseded = judgement {
      var unchecked = forwarded
      unchecked.generation = 0
      judgement = ledger.judge(unchecked, now: sequence, key: key)
    }
    return judgement
  }

  func owner(of client: String, otherThan key: String) -> String? {
    ledger.owner(of: client, otherThan: key)
  }

  mutating func recordRejected(_ origin: Origin, _ rejection: Rejection) {
    ledger.recordRejected(
      client: origin.client, number: origin.number, now: sequence, rejection: rejection,
      key: origin.key)
    changed.insert(origin.client)
  }

  mutating func recordApplied(_ origin: Origin) {
    sequence += 1
    ledger.recordApplied(client: origin.client, number: origin.number, sequence: sequence)
    changed.insert(origin.client)
  }

  func welcomeFacts(of client: String) -> (lastNumber: UInt64, forgottenThrough: UInt64) {
    (ledger.lastNumber(of: client), ledger.forgottenThrough)
  }
}
