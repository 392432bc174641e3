/// A message on the leader's updates socket (XPUB), received by every follower's SUB socket.
///
/// | command | frames after the command |
/// |---|---|
/// | `DELTA` | epoch, head (sequence, action count, each action's origin and tag), patch |
/// | `DELTAS` | epoch, count, then one frame of every delta's head and patch with their lengths |
/// | `HEARTBEAT` | epoch, sequence, state hash |
/// | `BYE` | epoch, sequence |
public enum UpdateMessage: Sendable, Equatable {
  /// The patch of one or more applied actions.
  case delta(Epoch, Delta)
  /// Consecutive deltas published together (what the leader applied between two publications,
  /// one delta per action): the same as a ``delta(_:_:)`` message for each, in order.
  case deltas(Epoch, [Delta])
  /// The leader's current sequence and the hash of its state's canonical JSON.
  case heartbeat(Epoch, sequence: UInt64, stateHash: UInt64)
  /// The leader is stopping; followers reconnect later.
  case bye(Epoch, sequence: UInt64)

  /// The message as ZeroMQ frames.
  public var frames: [Frame] {
    switch self {
    case .delta(let epoch, let delta):
      return Self.frames(Self.deltaCommand, epoch, count: delta.frameCount, delta.append(to:))
    case .deltas(let epoch, let deltas):
      return Self.frames(Self.deltasCommand, epoch, count: deltas.frameCount, deltas.append(to:))
    case .heartbeat(let epoch, let sequence, let hash):
      return [
        Frame(utf8: "HEARTBEAT"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence),
        Frame(bigEndian: hash),
      ]
    case .bye(let epoch, let sequence):
      return [Frame(utf8: "BYE"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence)]
    }
  }

  /// `command`, the epoch, then the `count` frames that `append` adds.
  private static func frames(
    _ command: Frame, _ epoch: Epoch, count: Int, _ append: (inout [Frame]) -> Void
  ) -> [Frame] {
    var frames: [Frame] = []
    frames.reserveCapacity(2 + count)
    frames.append(command)
    frames.append(Frame(bigEndian: epoch.rawValue))
    append(&frames)
    return frames
  }

  /// The command frames of `DELTA` and `DELTAS`, sent for every publication, made once.
  private static let deltaCommand = Frame(utf8: "DELTA")
  private static let deltasCommand = Frame(utf8: "DELTAS")

  /// Parses a message received on the updates socket.
  public init(frames: [Frame]) throws(ProtocolViolation) {
    var reader = try FrameReader.command(of: frames)
    let epoch = Epoch(rawValue: try reader.integer("epoch"))
    switch reader.command {
    case "DELTA":
      self = .delta(epoch, try Delta(reading: &reader))
    case "DELTAS":
      self = .deltas(epoch, try [Delta](reading: &reader))
    case "HEARTBEAT":
      self = .heartbeat(
        epoch, sequence: try reader.ordinal("sequence"), stateHash: try reader.integer("hash"))
    case "BYE":
      self = .bye(epoch, sequence: try reader.ordinal("sequence"))
    default:
      throw ProtocolViolation("unknown update command '\(reader.command)'", code: .unknownCommand)
    }
    try reader.finish()
  }
}

extension FrameReader {
  /// A reader over `frames` from `start` on, whose first frame, the command, is short ASCII
  /// text.
  package static func command(
    of frames: [Frame], at start: Int = 0
  ) throws(ProtocolViolation)
    -> FrameReader
  {
    guard start < frames.count else { throw ProtocolViolation("empty message") }
    let first = frames[start]
    guard first.count <= 16, first.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
      throw ProtocolViolation("the command frame is not a short ASCII word")
    }
    return FrameReader(frames, command: String(decoding: first, as: UTF8.self), start: start + 1)
  }
}
