/// What the leadership rules answered an operator's `STEP-DOWN`
/// (``LeaderEffect/stepDown(for:)``), as the shell reports it to
/// ``LeaderProtocol/stepDownAnswered(_:for:into:)``.
package enum HandOver: Sendable, Equatable {
  /// The hand-over of this lease (this leader's, with its fencing epoch) began, or was under
  /// way already: the leader commits and answers its batch, gives the lease up and becomes a
  /// standby.
  case began(LeaseRecord)
  /// The leader has standbys but does not hold the lease right now (it is still taking it
  /// over, or leaving it after a demotion).
  case notHolding
  /// The leader runs without a lease: no standby leaders share its journal.
  case withoutLease
}

extension LeaderProtocol {
  /// The message of `ERROR no-lease` to a `STEP-DOWN` of a leader without standbys.
  package static let withoutLeaseMessage =
    "this leader holds no lease: it runs without standby leaders (a PostgreSQL journal with "
    + "--standby)"

  /// The message of `ERROR no-lease` to a `STEP-DOWN` of a leader that does not hold the
  /// lease right now.
  package static let notHoldingMessage =
    "this leader does not hold the lease right now (it is taking it over, or leaving it): "
    + "ask again in a moment, or ask the holder (tandem stats shows it)"

  /// Answers the `STEP-DOWN` from `connection` with what the leadership rules said: `HANDING-OVER`
  /// naming the lease handed over, or `ERROR no-lease` saying why there is none. The answer
  /// keeps its place among the connection's replies: after those held for the batch in
  /// flight, which the hand-over commits and answers first.
  package mutating func stepDownAnswered(
    _ answer: HandOver, for connection: Frame, into effects: inout [LeaderEffect]
  ) {
    switch answer {
    case .began(let lease):
      effects.append(
        .log(
          .info,
          "handing the lease over at an operator's request (fencing epoch "
            + "\(lease.fencingEpoch))", rateLimited: false))
      reply(
        .handingOver(holder: lease.holder, fencingEpoch: lease.fencingEpoch), to: connection,
        into: &effects)
    case .notHolding:
      reply(.error(code: .noLease, message: Self.notHoldingMessage), to: connection, into: &effects)
    case .withoutLease:
      reply(
        .error(code: .noLease, message: Self.withoutLeaseMessage), to: connection, into: &effects)
    }
  }
}
