extension LeaderProtocol {
  /// The most deltas one `DELTAS` message carries.
  package static var deltasPerMessage: Int { 256 }
  /// The batch ending at `sequence` was committed (journaled, when there is a journal): publishes
  /// its `deltas`, a `DELTA` message for one and `DELTAS` messages for several (at most
  /// ``deltasPerMessage`` deltas each, and each message within the updates bound's
  /// ``UpdatesBound/messageBytes``), keeps them in the backlog, then sends the replies held for
  /// the batch. A delta that does not fit in a message of that size is not published (followers
  /// fetch it by `CATCHUP`, seeing the gap at the next message, a heartbeat at the latest).
  package mutating func committed(
    sequence: UInt64, deltas: [Delta], into effects: inout [LeaderEffect]
  ) {
    let bound = configuration.updates
    var start = 0
    while start < deltas.count {
      var bytes = UpdatesBound.headerCost + UpdatesBound.cost(of: deltas[start])
      guard bound.admits(bytes) else {
        unpublished(deltas[start], cost: bytes, into: &effects)
        start += 1
        continue
      }
      var end = start + 1
      while end < deltas.count, end - start < Self.deltasPerMessage {
        let next = UpdatesBound.cost(of: deltas[end])
        guard bound.admits(bytes + next) else { break }
        bytes += next
        end += 1
      }
      let message: UpdateMessage =
        end - start == 1
        ? .delta(epoch, deltas[start]) : .deltas(epoch, Array(deltas[start..<end]))
      effects.append(.publish(message))
      start = end
    }
    for delta in deltas { backlog.append(delta) }
    if !deltas.isEmpty { effects.append(.count(.deltasPublished(deltas.count))) }
    if appliedInBatch > 0 { effects.append(.count(.actionsApplied(appliedInBatch))) }
    appliedInBatch = 0
    self.sequence = sequence
    releaseHeld(into: &effects)
  }

  /// The batch of `actions` failed to commit (`error`), and the shell undid it: the store and
  /// the ledger are back at the committed sequence, with `ledger` the ledger there. The `ACK`s
  /// held for the batch's actions become `commit-failed` rejections (the ledger records them so:
  /// their numbers stay used up, and each followers' action counts as rejected), and are sent,
  /// quiet or not; an `ACK` of a duplicate of an
  /// action applied before the batch stays one, with the client's sequence in `ledger` (it was
  /// answered with one the batch made).
  package mutating func commitFailed(
    _ actions: [AppliedAction], restoring ledger: ClientLedger, because error: any Error,
    into effects: inout [LeaderEffect]
  ) {
    effects.append(.count(.commitFailure))
    appliedInBatch = 0
    // Rate-limited: a journal that refuses every commit would otherwise write a line per
    // batch; the lines written say how many were left out.
    effects.append(
      .log(
        .error,
        "the journal refused a batch of \(actions.count) actions (\(error)); "
          + "undoing it: the state goes back to sequence \(sequence)", rateLimited: true))
    let rejection = Self.commitFailure(error)
    var undone: [String: Set<UInt64>] = [:]
    for action in actions where !action.origin.isLeader {
      undone[action.origin.client, default: []].insert(action.origin.number)
      effects.append(.count(.actionRejected(.commitFailed)))
    }
    for index in held.indices {
      guard case .ack(let client, let number, let epoch, let acked) = held[index].reply,
        acked > sequence
      else { continue }
      if undone[client]?.contains(number) == true {
        held[index].reply = .reject(client: client, number: number, rejection)
        held[index].quiet = false
      } else {
        let restored = ledger.entries[client]?.lastSequence ?? 0
        held[index].reply = .ack(client: client, number: number, epoch, sequence: restored)
      }
    }
    releaseHeld(into: &effects)
  }

  /// The rejection of an action whose batch could not be made durable.
  package static func commitFailure(_ error: any Error) -> Rejection {
    Rejection(
      code: .commitFailed, message: "the leader could not make the action durable: \(error)")
  }

  /// Counts and logs a delta too large to publish within the updates bound.
  private func unpublished(_ delta: Delta, cost: Int, into effects: inout [LeaderEffect]) {
    effects.append(.count(.deltaUnpublished))
    effects.append(
      .log(
        .info,
        "did not publish the delta at \(delta.sequence): its \(cost) bytes exceed the "
          + "\(configuration.updates.messageBytes) of one update message; followers fetch it "
          + "by catch-up", rateLimited: true))
  }

  /// Sends the held replies that are not quiet, and forgets them all.
  private mutating func releaseHeld(into effects: inout [LeaderEffect]) {
    for pending in held where !pending.quiet {
      effects.append(.reply(to: pending.connection, pending.reply))
    }
    held.removeAll(keepingCapacity: true)
  }
}
