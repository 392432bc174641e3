import TandemProtocol
import ZeroMQ

/// Why a follower could not join, or why a sent action did not take effect.
public enum FollowerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The leader refused the action; its number is used up and it changed nothing.
  case rejected(Rejection)
  /// The outbox already holds as many unacknowledged actions as it may; nothing was queued.
  case outboxFull(capacity: Int)
  /// The follower stopped before the action was acknowledged and shown by the replica.
  case stopped
  /// The action's type is not in the follower's action registry, so it cannot be forwarded.
  case unregisteredAction(String)
  /// The leader's history changed (a new epoch) after it acknowledged the action and before the
  /// replica showed it: the leader may have lost the action with that history.
  case historyLost
  /// The leader forgot this follower's client id (it evicted it as idle, see
  /// ``LeaderConfiguration/ledgerIdleLimit``, or beyond its
  /// ``LeaderConfiguration/maximumLedgerClients``) while the action was sent and unanswered, and
  /// the leader's ledger forgot clients active after the action was sent (see
  /// ``ClientLedger/forgottenThrough``): it may have been applied, and sent again it could be
  /// applied twice, so it was not. Check the state before sending it again.
  case outcomeUnknown
  /// The leader refused the follower: at `HELLO` (a different schema or protocol version), or
  /// because another process took its client id over (``ErrorCode/superseded``: its unanswered
  /// actions may or may not have been applied).
  case refused(code: ErrorCode, message: String)
  /// The leader's snapshot does not decode as the follower's state type, so it cannot join.
  case undecodableSnapshot(String)
  /// The follower's I/O thread could not start (ZeroMQ could not make its context or sockets).
  case cannotStart(ZMQError)
  /// No snapshot arrived within the join timeout.
  case joinTimedOut(leader: String)
  /// The leader endpoint is not a ZeroMQ endpoint.
  case invalidEndpoint(String)
  /// The configured client id is empty or longer than 256 bytes of UTF-8, which the protocol
  /// does not allow (the empty id is the leader's own origin).
  case invalidClientID(String)
  /// The action's JSON is larger than ``FollowerConfiguration/maxActionSize``; nothing was queued.
  case actionTooLarge(bytes: Int, limit: Int)
  /// The action's tag is longer than the leader accepts (its `WELCOME` says, 256 bytes of UTF-8
  /// by default); nothing was queued.
  case tagTooLong(String, limit: Int)
  /// The leader refused this follower's CURVE handshake: its key is not (or no longer) in the
  /// leader's key store, it has no keys and the leader requires them (or the other way
  /// round), or it pins another key than the leader's. The message says which.
  case authenticationFailed(String)
  /// The task awaiting ``Receipt/applied()`` was cancelled. Only the wait ended: the action may
  /// still take effect, and the receipt still settles.
  case waitCancelled

  public var description: String {
    switch self {
    case .rejected(let rejection): "the leader rejected the action: \(rejection)"
    case .outboxFull(let capacity):
      "the outbox is full (\(capacity) unacknowledged actions): the leader is unreachable or slow"
    case .stopped: "the follower stopped"
    case .unregisteredAction(let type):
      "\(type) is not registered in the action registry, so it cannot be sent to the leader"
    case .historyLost: "the leader started a new history before the action became visible"
    case .outcomeUnknown:
      "the leader forgot this follower while the action was unanswered: it may have been applied"
    case .refused(let code, let message): "the leader refused this follower (\(code)): \(message)"
    case .undecodableSnapshot(let reason): "the leader's snapshot does not decode: \(reason)"
    case .cannotStart(let error): "cannot start the follower's I/O thread: \(error)"
    case .joinTimedOut(let leader): "no snapshot from the leader at \(leader) in time"
    case .invalidEndpoint(let text):
      "'\(text)' is not an endpoint: use tcp://HOST:PORT, ipc://PATH or inproc://NAME"
    case .invalidClientID(let id):
      "the client id '\(id)' is \(id.utf8.count) bytes: a client id has "
        + "\(FrameReader.clientIDBytes.lowerBound) to \(FrameReader.clientIDBytes.upperBound) "
        + "bytes of UTF-8"
    case .actionTooLarge(let bytes, let limit):
      "the action's JSON is \(bytes) bytes, more than the \(limit) a message to the leader may hold"
    case .tagTooLong(let tag, let limit):
      "the tag '\(tag.prefix(64))' is \(tag.utf8.count) bytes, more than the \(limit) the leader accepts"
    case .authenticationFailed(let reason):
      "the leader refused the connection: \(reason)"
    case .waitCancelled: "the wait for the action was cancelled (the action may still be applied)"
    }
  }
}
