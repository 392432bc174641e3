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
  /// How many frames ``append(to:)`` writes.
  package var frameCount: Int { 1 + 2 * count }

  /// Appends the frames of `DELTAS` after the epoch: the count, then each delta's frames.
  package func append(to frames: inout [Frame]) {
    frames.append(Frame(bigEndian: UInt64(count)))
    for delta in self { delta.append(to: &frames) }
  }

  /// Reads the frames that ``append(to:)`` writes.
  package init(reading reader: inout FrameReader) throws(ProtocolViolation) {
    let count = try reader.integer("count")
    // Each delta takes 2 frames: refuse a count the message cannot hold before reserving room
    // for it.
    guard count <= UInt64(reader.remaining / 2) else {
      throw ProtocolViolation("\(reader.command): count \(count) exceeds the frames sent")
    }
    self = []
    reserveCapacity(Int(count))
    var recent: RecentStrings? = RecentStrings()
    for _ in 0..<count { append(try Delta(reading: &reader, reusing: &recent)) }
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
