/// One applied action as the leader publishes it: the patch from the state before to the state
/// after, at a sequence number, with the action's tag and where it came from.
public struct Delta: Sendable, Equatable {
  /// The gapless sequence number of the state this delta produces.
  public var sequence: UInt64
  /// Who dispatched the action.
  public var origin: Origin
  /// The action's registered tag.
  public var tag: String
  /// The RFC 6902 JSON Patch, as canonical JSON bytes.
  public var patch: Frame

  public init(sequence: UInt64, origin: Origin, tag: String, patch: Frame) {
    self.sequence = sequence
    self.origin = origin
    self.tag = tag
    self.patch = patch
  }

  /// Appends the frames after the epoch: sequence, origin client, action number, tag, patch.
  func append(to frames: inout [Frame]) {
    frames.append(Frame(bigEndian: sequence))
    frames.append(Frame(utf8: origin.client))
    frames.append(Frame(bigEndian: origin.number))
    frames.append(Frame(utf8: tag))
    frames.append(patch)
  }

  /// Reads the five frames that ``frames`` writes.
  init(reading reader: inout FrameReader) throws(ProtocolViolation) {
    sequence = try reader.integer("sequence")
    origin = Origin(client: try reader.text("origin"), number: try reader.integer("number"))
    tag = try reader.text("tag")
    patch = try reader.bytes("patch")
  }
}

/// Who dispatched an action: a follower's client id and its action number, or the leader.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
  /// The follower's client id; empty for the leader's own dispatches.
  public var client: String
  /// The follower's number for the action (1, 2, 3...); 0 for the leader's own dispatches.
  public var number: UInt64

  public init(client: String, number: UInt64) {
    self.client = client
    self.number = number
  }

  /// The leader's own dispatches.
  public static let leader = Origin(client: "", number: 0)

  /// Whether the leader itself dispatched the action.
  public var isLeader: Bool { client.isEmpty }

  public var description: String { isLeader ? "leader" : "\(client)#\(number)" }
}
