/// The bound, in bytes, on the updates a leader lets wait for one follower, and what it makes
/// of ZeroMQ's bound in messages.
///
/// The updates socket (XPUB) queues each message for each subscriber in that subscriber's pipe,
/// and drops a message for a subscriber whose pipe holds its send high-water mark (`ZMQ_SNDHWM`)
/// of messages; libzmq counts messages, not bytes. So the leader keeps every message it
/// publishes at or below ``messageBytes`` (counting libzmq's ``bytesPerFrame`` per frame) and
/// sets the high-water mark to ``highWaterMark``, at most ``maximumQueuedBytes`` /
/// ``messageBytes`` messages: a follower that stops reading then has at most
/// ``maximumQueuedBytes`` of updates waiting in the leader, and misses what follows, which it
/// repairs by `CATCHUP` or `SNAPSHOT` when it reads again (it sees the gap). A delta too large
/// for one message is not published at all: followers learn of it from the next message (a
/// heartbeat at the latest) and fetch it by `CATCHUP`, whose replies have their own bound.
///
/// ```swift
/// let bound = UpdatesBound(maximumQueuedBytes: 64 << 20, highWaterMark: 100_000)
/// bound.highWaterMark  // 512 messages of at most 128 KiB each
/// ```
package struct UpdatesBound: Sendable, Equatable {
  /// What libzmq keeps in a pipe for each frame of a queued message besides the frame's bytes
  /// (its `zmq_msg_t`); a frame of more than 33 bytes also shares its bytes among the pipes.
  package static let bytesPerFrame = 64
  /// The most bytes one update message costs, unless ``maximumQueuedBytes`` is smaller.
  package static let defaultMessageBytes = 128 << 10
  /// The smallest bound a leader accepts: room for any heartbeat and a small delta.
  package static let minimumQueuedBytes = 4 << 10

  /// The most bytes of updates waiting for one follower.
  package let maximumQueuedBytes: Int
  /// The most bytes one published message costs, its frames' overhead included.
  package let messageBytes: Int
  /// The updates socket's send high-water mark: messages per follower.
  package let highWaterMark: Int32

  /// The bound of `maximumQueuedBytes` per follower, with at most `limit` messages per
  /// follower (the configured high-water mark) and messages of at most `messageBytes`.
  package init(
    maximumQueuedBytes: Int, highWaterMark limit: Int32, messageBytes: Int = defaultMessageBytes
  ) {
    precondition(
      maximumQueuedBytes >= Self.minimumQueuedBytes,
      "UpdatesBound: at least \(Self.minimumQueuedBytes) bytes per follower")
    precondition(limit >= 1, "UpdatesBound: a high-water mark of at least 1 message")
    self.maximumQueuedBytes = maximumQueuedBytes
    self.messageBytes = min(max(messageBytes, Self.minimumQueuedBytes), maximumQueuedBytes)
    let messages = maximumQueuedBytes / self.messageBytes
    highWaterMark = Int32(clamping: max(1, min(Int(limit), messages)))
  }

  /// The bytes a message of `frames` frames holding `bytes` bytes costs in a pipe.
  package static func cost(frames: Int, bytes: Int) -> Int {
    bytes + frames * bytesPerFrame
  }

  /// What the frames before the deltas of a `DELTA` or `DELTAS` message cost at most (command,
  /// epoch, and the count of `DELTAS`).
  package static let headerCost = cost(frames: 3, bytes: 6 + 8 + 8)

  /// What one delta's frames cost in a `DELTA` or `DELTAS` message: its head (see
  /// `DeltaHead`) and its patch.
  package static func cost(of delta: Delta) -> Int {
    var bytes = DeltaHead.fixedBytes + delta.patch.count
    for action in delta.actions {
      bytes +=
        DeltaHead.recordHeaderBytes + action.origin.client.utf8.count
        + action.origin.key.utf8.count + action.tag.utf8.count
    }
    return cost(frames: delta.frameCount, bytes: bytes)
  }

  /// Whether a message of `cost` bytes may be published.
  package func admits(_ cost: Int) -> Bool { cost <= messageBytes }
}
