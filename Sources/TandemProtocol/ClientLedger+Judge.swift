extension ClientLedger {
  /// The answer to a forwarded action: a verdict when its sender owns the client id, else the
  /// owner's generation.
  package enum Judgement: Sendable, Equatable {
    /// The sender owns the client id; `adopted` when its generation, one this ledger did not
    /// record, became the owner's (a change to journal).
    case verdict(Verdict, adopted: Bool)
    /// Another process took the client id over, under generation `current`.
    case superseded(current: UInt64)
  }

  /// Judges a forwarded action: admits its sender (``admit(client:generation:now:)``; generation
  /// 0, a sender that said no `HELLO`, is not checked), then gives the ``verdict(client:number:)``.
  /// `now` is the leader's sequence.
  ///
  /// It runs for every action, so the client's entry is looked up once when the sender is the
  /// recorded owner (admitting it changes nothing then); only a sender of another generation
  /// goes through ``admit(client:generation:now:)``, which only changes the entry's owner, not
  /// what the verdict reads.
  package mutating func judge(_ forwarded: ForwardedAction, now: UInt64) -> Judgement {
    let client = forwarded.client
    let entry = entries[client]
    var adopted = false
    if forwarded.generation != 0, forwarded.generation != entry?.generation ?? 0 {
      if case .superseded(let current) = admit(
        client: client, generation: forwarded.generation, now: now)
      {
        return .superseded(current: current)
      }
      adopted = true
    }
    return .verdict(Self.verdict(of: entry, number: forwarded.number), adopted: adopted)
  }
}
