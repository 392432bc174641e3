/// What ``LeaderProtocol`` asks its shell to do: the only way its rules reach sockets, the
/// store, the journal, the log and the counters. The shell carries effects out in order.
package enum LeaderEffect: Sendable, Equatable {
  /// Send `reply` on the connection now.
  case reply(to: Frame, ControlReply)
  /// The reply is held until the batch is committed: the protocol sends it (as ``reply(to:_:)``)
  /// when the batch commits, or the rejection it became when the batch fails to commit; a
  /// `quiet` one (a `DISPATCH-QUIET`'s `ACK`) only as a rejection. Nothing for the shell to do.
  case replyAfterCommit(to: Frame, ControlReply, quiet: Bool)
  /// Decode, validate and dispatch the forwarded action on the store, then report the sequence
  /// it took effect at, or why not, with ``LeaderProtocol/applied(_:from:quietly:result:ledger:into:)``.
  case apply(ForwardedAction, Origin, from: Frame, quietly: Bool)
  /// Send the message on the updates socket.
  case publish(UpdateMessage)
  /// Read the journal's catch-up window from `sequence` (at most `maximumBytes` of patches) and
  /// report it with ``LeaderProtocol/journalWindow(_:from:for:into:)``.
  case readJournal(from: UInt64, maximumBytes: Int, for: Frame)
  /// Answer `SNAPSHOT` on the connection with the committed state (the shell encodes it).
  case sendSnapshot(to: Frame)
  /// Answer `STATS` on the connection (the shell gathers them).
  case sendStatistics(to: Frame)
  /// Read the key store again and answer `KEYS` on the connection (an admin's `RELOAD-KEYS`).
  case reloadKeys(for: Frame)
  /// Ask the leadership rules (a standby leader's lease keeper) to hand the lease over, and
  /// report their answer with ``LeaderProtocol/stepDownAnswered(_:for:into:)`` (an admin's
  /// `STEP-DOWN`).
  case stepDown(for: Frame)
  /// Write a line to the log; a `rateLimited` one only within the log's rate (a peer controls
  /// how often it happens).
  case log(LeaderLogLevel, String, rateLimited: Bool)
  /// Count one event.
  case count(LeaderEvent)
  /// Tell the leadership rules (the lease keeper) that a commit could not be decided: they
  /// demote the leader (``UndecidedCommit``).
  case leadership(UndecidedCommit)
}

/// The level of a ``LeaderEffect/log(_:_:rateLimited:)`` line.
package enum LeaderLogLevel: Sendable, Equatable {
  case debug, info, error
}

/// An event ``LeaderProtocol`` counts (the shell keeps the counters that `STATS` reports).
package enum LeaderEvent: Sendable, Equatable {
  /// A `HELLO` refused for its protocol version or its schema fingerprint.
  case handshakeFailure(ErrorCode)
  case supersededHello
  case supersededDispatch
  case duplicate
  case outOfOrder
  /// Followers' actions a batch applied, counted when the batch is committed (an action of a
  /// batch that failed to commit counts as rejected, never as applied).
  case actionsApplied(Int)
  case actionRejected(Rejection.Code)
  case catchUpServed
  case staleCatchUp
  case journalCatchUp
  case deltasPublished(Int)
  /// A committed delta too large for one update message within ``UpdatesBound``, not published.
  case deltaUnpublished
  case commitFailure
  /// A request or a dispatch refused because the caller's key may not make it.
  case unauthorized
}
