extension ClientLedger {
  /// The answer to a forwarded action: a verdict when its sender owns the client id, else the
  /// owner's generation.
  package enum Judgement: Sendable, Equatable {
    /// The sender owns the client id (or is not checked, or is unknown to the ledger:
    /// ``Verdict/unknownSender``).
    case verdict(Verdict)
    /// Another process took the client id over, under generation `current`.
    case superseded(current: UInt64)
    /// The client id is bound to another key, `owner` (``Entry/key``): no verdict, and no
    /// number of the owner's used up.
    case unauthorized(owner: String)
  }

  /// Judges a forwarded action: admits its sender (``admit(client:generation:now:)``; generation
  /// 0, a sender that said no `HELLO`, is not checked), then gives the ``verdict(client:number:)``.
  /// Judging changes nothing in the ledger.
  /// `now` is the leader's sequence.
  ///
  /// It runs for every action, so the client's entry is looked up once when the sender is the
  /// recorded owner (admitting it changes nothing then); only a sender of another generation
  /// goes through ``admit(client:generation:now:)``, which changes nothing. An id bound to
  /// another key than `key` (the sender's, empty without authentication) is refused first.
  package mutating func judge(
    _ forwarded: ForwardedAction, now: UInt64, key: String = ""
  ) -> Judgement {
    let client = forwarded.client
    if let owner = owner(of: client, otherThan: key) { return .unauthorized(owner: owner) }
    let entry = entries[client]
    if forwarded.generation != 0, forwarded.generation != entry?.generation ?? 0 {
      switch admit(client: client, generation: forwarded.generation, now: now) {
      case .superseded(let current): return .superseded(current: current)
      case .unknown: return .verdict(.unknownSender)
      case .owner: break
      }
    }
    return .verdict(Self.verdict(of: entry, number: forwarded.number))
  }
}
