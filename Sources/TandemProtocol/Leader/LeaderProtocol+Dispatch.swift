extension LeaderProtocol {
  /// Judges a forwarded action from `connection`, exactly once (see ``ClientLedger``): refused
  /// from a connection or a process that no longer owns its client id; a duplicate answered
  /// with its sequence or its rejection; out of order refused without using its number up;
  /// else applied (``LeaderEffect/apply(_:_:from:quietly:)``). Every answer waits for the batch.
  ///
  /// With keys, a client id bound to another key than the `caller`'s is refused (`ERROR
  /// unauthorized`) before any verdict, so that no number of the owner's is used up; an action
  /// the caller's key may not dispatch is rejected (`REJECT unauthorized`) once it is the
  /// client's next number, which it uses up, before any reducer runs.
  mutating func dispatch<Ledger: LeaderLedger>(
    _ forwarded: ForwardedAction, from connection: Frame, caller: Caller = .open,
    quietly: Bool, ledger: inout Ledger, into effects: inout [LeaderEffect]
  ) {
    let client = forwarded.client
    if undecided != nil {
      // Deposed: the next leader answers it, once.
      effects.append(
        .log(
          .debug, "left \(forwarded.tag) #\(forwarded.number) unanswered: not the leader now",
          rateLimited: true))
      return
    }
    if let owner = ledger.owner(of: client, otherThan: caller.keyName) {
      return unauthorizedClient(client, owner: owner, caller: caller, connection, &effects)
    }
    guard followers.accepts(client, from: connection) else {
      // Sent on a connection the client has since replaced with a new HELLO (a reconnect, or a
      // restarted process with the same id): the new connection resends what still matters, in
      // its own numbering, so applying this could reuse numbers. The answer reaches a live
      // follower only when another process took its client id over, and that follower stops.
      effects.append(.count(.supersededDispatch))
      effects.append(
        .log(
          .debug, "refused \(forwarded.tag) #\(forwarded.number) from a superseded connection",
          rateLimited: true))
      let message = "another connection said HELLO for client \(client) after this one"
      hold(
        .error(code: .superseded, message: message), to: connection, quiet: false, into: &effects)
      return
    }
    let verdict: ClientLedger.Verdict
    switch ledger.judge(forwarded, key: caller.keyName) {
    case .verdict(let judged):
      verdict = judged
    case .unauthorized(let owner):
      return unauthorizedClient(client, owner: owner, caller: caller, connection, &effects)
    case .superseded(let current):
      // Sent by a process another process took the client id over from (see `hello`): its
      // numbers now belong to the other's numbering, so it gets no verdict on them at all.
      effects.append(.count(.supersededDispatch))
      let message =
        "another process took client id \(client) over (generation \(current)) "
        + "after this one (generation \(forwarded.generation)) said HELLO"
      hold(
        .error(code: .superseded, message: message), to: connection, quiet: false, into: &effects)
      return
    }
    let number = forwarded.number
    switch verdict {
    case .duplicate(let sequence):
      effects.append(.count(.duplicate))
      hold(
        .ack(client: client, number: number, epoch, sequence: sequence), to: connection,
        quiet: false, into: &effects)
    case .rejected(let rejection):
      effects.append(.count(.duplicate))
      hold(
        .reject(client: client, number: number, rejection), to: connection, quiet: false,
        into: &effects)
    case .outOfOrder(let expected):
      effects.append(.count(.outOfOrder))
      let rejection = Rejection(
        code: .outOfOrder, message: "expected action number \(expected), got \(number)")
      hold(
        .reject(client: client, number: number, rejection), to: connection, quiet: false,
        into: &effects)
    case .unknownSender:
      effects.append(.count(.outOfOrder))
      let rejection = Rejection(
        code: .outOfOrder,
        message: "the leader does not know this process for client \(client) (it forgot the "
          + "client, or lost the end of its history): say HELLO again")
      hold(
        .reject(client: client, number: number, rejection), to: connection, quiet: false,
        into: &effects)
    case .apply:
      let origin = Origin(
        client: client, number: number, generation: forwarded.generation, key: caller.keyName)
      if let refusal = Self.refusal(toDispatch: forwarded.tag, by: caller) {
        effects.append(.count(.unauthorized))
        return applied(
          forwarded, from: connection, key: caller.keyName, quietly: quietly,
          result: .failure(refusal), ledger: &ledger, into: &effects)
      }
      effects.append(.apply(forwarded, origin, from: connection, quietly: quietly))
    }
  }

  /// Refuses a dispatch for a client id bound to another key, `owner`: `ERROR unauthorized`,
  /// held for the batch, and no number of the owner's used up.
  private mutating func unauthorizedClient(
    _ client: String, owner: String, caller: Caller, _ connection: Frame,
    _ effects: inout [LeaderEffect]
  ) {
    effects.append(.count(.unauthorized))
    let message =
      "client id \(client) belongs to another key (\(owner)), not to \(caller.keyName): give "
      + "this process a client id of its own"
    hold(
      .error(code: .unauthorized, message: message), to: connection, quiet: false, into: &effects)
  }

  /// Takes the outcome of an ``LeaderEffect/apply(_:_:from:quietly:)``: the sequence the action
  /// took effect at, held as its `ACK` (quiet for `DISPATCH-QUIET`: its delta answers), or why
  /// it was refused, which uses its number up. A refusal the application calls `out-of-order`
  /// is `refused`: `out-of-order` would tell the follower its number is not used up.
  /// `key` is the name of the sender's key (empty without keys).
  package mutating func applied<Ledger: LeaderLedger>(
    _ forwarded: ForwardedAction, from connection: Frame, key: String = "", quietly: Bool,
    result: Result<UInt64, Rejection>, ledger: inout Ledger, into effects: inout [LeaderEffect]
  ) {
    let origin = Origin(
      client: forwarded.client, number: forwarded.number, generation: forwarded.generation,
      key: key)
    switch result {
    case .success(let sequence):
      appliedInBatch += 1
      hold(
        .ack(client: origin.client, number: origin.number, epoch, sequence: sequence),
        to: connection, quiet: quietly, into: &effects)
    case .failure(let refusal):
      var rejection = refusal.bounded
      if rejection.code == .outOfOrder { rejection.code = .refused }
      effects.append(.count(.actionRejected(rejection.code)))
      ledger.recordRejected(origin, rejection)
      effects.append(
        .log(.info, "rejected \(forwarded.tag) from \(origin): \(rejection)", rateLimited: true))
      hold(
        .reject(client: origin.client, number: origin.number, rejection), to: connection,
        quiet: false, into: &effects)
    }
  }
}
