/// The change one or more consecutive actions made, as the leader publishes it: the patch from
/// the state before the first to the state after the last, with each action's tag and origin.
///
/// A leader publishes a delta per action by default; with grouped deltas
/// (``LeaderConfiguration/deltaGrouping``) the actions it applies together share one delta,
/// diffed once. Every action still has its own sequence: the first action's is
/// ``firstSequence``, the last one's ``sequence``.
public struct Delta: Sendable, Equatable {
  /// The gapless sequence number of the state this delta produces (that of its last action).
  public var sequence: UInt64
  /// The actions the delta applies, in the order they took effect; never empty.
  public var actions: [AppliedAction]
  /// The RFC 6902 JSON Patch from the state at ``firstSequence`` − 1 to the state at
  /// ``sequence``, as canonical JSON bytes.
  public var patch: Frame

  /// A delta of the actions `actions`, the last of which took effect at `sequence`.
  public init(sequence: UInt64, actions: [AppliedAction], patch: Frame) {
    precondition(!actions.isEmpty, "a delta applies at least one action")
    precondition(UInt64(actions.count) <= sequence, "sequences start at 1")
    self.sequence = sequence
    self.actions = actions
    self.patch = patch
  }

  /// A delta of one action.
  public init(sequence: UInt64, origin: Origin, tag: String, patch: Frame) {
    self.init(sequence: sequence, actions: [AppliedAction(origin: origin, tag: tag)], patch: patch)
  }

  /// The sequence at which the first action took effect; the patch applies to the state just
  /// before it.
  public var firstSequence: UInt64 { sequence - UInt64(actions.count) + 1 }

  /// Each action with the sequence at which it took effect.
  public var sequencedActions: some Sequence<(sequence: UInt64, action: AppliedAction)> {
    zip(firstSequence..., actions).lazy.map { (sequence: $0, action: $1) }
  }

  /// How many frames ``append(to:)`` writes.
  package var frameCount: Int { 2 }

  /// Appends the frames after the epoch: the head (sequence, action count, each action's
  /// origin and tag: see `DeltaHead`), then the patch.
  package func append(to frames: inout [Frame]) {
    frames.append(DeltaHead.frame(of: self))
    frames.append(patch)
  }

  /// Reads the frames that ``append(to:)`` writes.
  package init(reading reader: inout FrameReader) throws(ProtocolViolation) {
    var recent: RecentStrings? = nil
    try self.init(reading: &reader, reusing: &recent)
  }

  /// Reads the frames that ``append(to:)`` writes, decoding texts through `recent` (the client
  /// ids, key names and tags of consecutive deltas repeat); without one, a delta of several
  /// actions makes its own.
  package init(
    reading reader: inout FrameReader, reusing recent: inout RecentStrings?
  ) throws(ProtocolViolation) {
    let head = try reader.bytes("head")
    let (sequence, actions) = try DeltaHead.read(head, command: reader.command, reusing: &recent)
      .get()
    self.init(sequence: sequence, actions: actions, patch: try reader.bytes("patch"))
  }
}

extension [Delta] {
  /// How many frames ``append(to:)`` writes: the count and the deltas' body.
  package var frameCount: Int { 2 }

  /// The bytes a delta takes in the body at least: its head's length, a head without actions
  /// and its patch's length.
  private static let leastDeltaBytes = 4 + DeltaHead.fixedBytes + 4

  /// Appends the frames of `DELTAS` after the epoch: the count, then one frame holding every
  /// delta as its head's length (4 bytes, big-endian), its head, its patch's length and its
  /// patch. (One frame for all: under CURVE each frame is encrypted on its own, at a cost that
  /// does not depend on its size.)
  package func append(to frames: inout [Frame]) {
    frames.append(Frame(bigEndian: UInt64(count)))
    var size = 0
    for delta in self { size += 8 + DeltaHead.byteCount(of: delta) + delta.patch.count }
    var body = Frame()
    body.reserveCapacity(size)
    for delta in self {
      // The head's length goes before it: written once the head is, without sizing it again.
      let lengthAt = body.count
      body.appendBigEndian(0, bytes: 4)
      DeltaHead.append(delta, to: &body)
      let headBytes = UInt32(body.count - lengthAt - 4).bigEndian
      Swift.withUnsafeBytes(of: headBytes) {
        body.replaceSubrange(lengthAt..<lengthAt + 4, with: $0)
      }
      body.appendBigEndian(UInt64(delta.patch.count), bytes: 4)
      body.append(contentsOf: delta.patch)
    }
    frames.append(body)
  }

  /// Reads the frames that ``append(to:)`` writes.
  package init(reading reader: inout FrameReader) throws(ProtocolViolation) {
    let count = try reader.integer("count")
    let body = try reader.bytes("deltas")
    let command = reader.command
    // Refuse a count the body cannot hold before reserving room for it.
    guard count <= UInt64(body.count / Self.leastDeltaBytes) else {
      throw ProtocolViolation("\(command): count \(count) exceeds what the deltas frame holds")
    }
    var deltas: [Delta] = []
    deltas.reserveCapacity(Int(count))
    let result: Result<Void, ProtocolViolation> = body.withUnsafeBufferPointer { bytes in
      var cursor = ByteCursor(bytes)
      var recent: RecentStrings? = RecentStrings()
      for index in 0..<Int(count) {
        guard cursor.remaining >= 4 else {
          return .failure(ProtocolViolation("\(command): delta \(index) of \(count) is cut short"))
        }
        let headBytes = Int(cursor.integer(bytes: 4))
        guard headBytes <= cursor.remaining - 4 else {
          return .failure(ProtocolViolation("\(command): delta \(index) of \(count) is cut short"))
        }
        let head = cursor.take(headBytes)
        let patchBytes = Int(cursor.integer(bytes: 4))
        guard patchBytes <= cursor.remaining else {
          return .failure(ProtocolViolation("\(command): delta \(index) of \(count) is cut short"))
        }
        let patch = Frame(cursor.take(patchBytes))
        switch DeltaHead.read(head, command: command, reusing: &recent) {
        case .success(let (sequence, actions)):
          deltas.append(Delta(sequence: sequence, actions: actions, patch: patch))
        case .failure(let violation):
          return .failure(violation)
        }
      }
      guard cursor.remaining == 0 else {
        return .failure(
          ProtocolViolation("\(command): \(cursor.remaining) bytes after the last delta"))
      }
      return .success(())
    }
    try result.get()
    self = deltas
  }
}

/// One action a ``Delta`` applies: who dispatched it and its registered tag.
public struct AppliedAction: Sendable, Equatable {
  /// Who dispatched the action.
  public var origin: Origin
  /// The action's registered tag.
  public var tag: String

  public init(origin: Origin, tag: String) {
    self.origin = origin
    self.tag = tag
  }
}

/// Who dispatched an action: a follower's client id and its action number, or the leader.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
  /// The follower's client id; empty for the leader's own dispatches.
  public var client: String
  /// The follower's number for the action (1, 2, 3...); 0 for the leader's own dispatches.
  public var number: UInt64
  /// The generation of the process that sent the action, as the leader handed it at `HELLO`
  /// (0 for the leader's own dispatches and for a sender that said no `HELLO`): a delta
  /// answers a follower's action only when it names the follower's own generation, so that
  /// the actions of a process that took its client id over never answer its own.
  public var generation: UInt64
  /// The name of the key the sender authenticated with (empty for the leader's own dispatches
  /// and without CURVE keys). The leader journals it with the action, an audit trail, and
  /// deltas carry it to every follower.
  public var key: String

  public init(client: String, number: UInt64, generation: UInt64 = 0, key: String = "") {
    self.client = client
    self.number = number
    self.generation = generation
    self.key = key
  }

  /// The leader's own dispatches.
  public static let leader = Origin(client: "", number: 0)

  /// Whether the leader itself dispatched the action.
  public var isLeader: Bool { client.isEmpty }

  public var description: String { isLeader ? "leader" : "\(client)#\(number)" }
}
