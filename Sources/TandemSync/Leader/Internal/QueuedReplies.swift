import Synchronization
import TandemProtocol

/// The bytes of large replies (`STATE`, `DELTAS`) each control connection has queued in ZeroMQ
/// and not yet handed to the network, by routing id: counted up when the leader sends one, and
/// down when libzmq releases it (written to the connection, or dropped with it), on one of
/// libzmq's I/O threads. A peer that asks and never reads so cannot make the leader queue more
/// than a bounded amount of them.
final class QueuedReplies: Sendable {
  private let bytes = Mutex<[Frame: Int]>([:])

  /// Reserves room for a reply of `count` bytes to the connection `routingID`: granted when the
  /// connection has none queued, or when `count` more stay within `limit`.
  func reserve(_ count: Int, for routingID: Frame, limit: Int) -> Bool {
    bytes.withLock { bytes in
      let queued = bytes[routingID, default: 0]
      guard queued == 0 || queued + count <= limit else { return false }
      bytes[routingID] = queued + count
      return true
    }
  }

  /// Gives back the room of a reply of `count` bytes that libzmq has released.
  func release(_ count: Int, for routingID: Frame) {
    bytes.withLock { bytes in
      let left = bytes[routingID, default: 0] - count
      bytes[routingID] = left > 0 ? left : nil
    }
  }

  /// The bytes of replies queued for `routingID` and not yet sent.
  func queued(for routingID: Frame) -> Int {
    bytes.withLock { $0[routingID, default: 0] }
  }
}
