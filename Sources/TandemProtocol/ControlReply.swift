/// The leader's answer on the control socket to a ``ControlRequest``.
///
/// | command | frames after the command |
/// |---|---|
/// | `WELCOME` | epoch, sequence, client's last action number, ledger forgotten through, heartbeat interval (ms), updates endpoint, the follower's generation, the largest payload, tag and client id, the leader's schema |
/// | `STATE` | epoch, sequence, state hash, state (canonical JSON) |
/// | `DELTAS` | epoch, count, then per delta: sequence, origin, number, tag, patch |
/// | `STALE` | epoch, sequence |
/// | `ACK` | client id, action number, epoch, sequence |
/// | `REJECT` | client id, action number, reason code, message |
/// | `PONG` | epoch, sequence |
/// | `STATS` | statistics (JSON) |
/// | `ERROR` | code, message |
/// | `REDIRECT` | control endpoint, updates endpoint, fencing epoch, holder |
/// | `HANDING-OVER` | holder, fencing epoch |
public enum ControlReply: Sendable, Equatable {
  case welcome(
    Epoch, sequence: UInt64, lastNumber: UInt64, forgottenThrough: UInt64,
    heartbeatMilliseconds: UInt64, updates: String, generation: UInt64 = 0,
    limits: ProtocolLimits = .standard, schema: Frame? = nil)
  case state(Epoch, sequence: UInt64, stateHash: UInt64, document: Frame)
  case deltas(Epoch, [Delta])
  case stale(Epoch, sequence: UInt64)
  case ack(client: String, number: UInt64, Epoch, sequence: UInt64)
  case reject(client: String, number: UInt64, Rejection)
  case pong(Epoch, sequence: UInt64)
  case stats(document: Frame)
  case error(code: ErrorCode, message: String)
  /// The answer to `RELOAD-KEYS`: how many keys the reloaded key store holds, and the names of
  /// those it dropped (whose connections the leader cut).
  case keys(count: UInt64, removed: [String])
  /// A standby leader's answer to `HELLO`: it does not serve; the lease holder it last saw
  /// (its leader id and fencing epoch) serves at `control` and `updates`. An empty `control`
  /// says no leader is known to serve right now: try again, or another endpoint.
  case redirect(control: String, updates: String, fencingEpoch: UInt64, holder: String)
  /// The answer to `STEP-DOWN`: the hand-over of the lease this leader holds (its leader id
  /// and fencing epoch) began. The leader commits and answers the batch in flight, gives the
  /// lease up and becomes a standby; another leader takes the lease with a higher fencing
  /// epoch.
  case handingOver(holder: String, fencingEpoch: UInt64)

  /// The message as ZeroMQ frames.
  public var frames: [Frame] {
    var frames: [Frame] = []
    append(to: &frames)
    return frames
  }

  /// The frames a ROUTER sends: `routingID`, then the message.
  package func frames(to routingID: Frame) -> [Frame] {
    var frames = [routingID]
    append(to: &frames)
    return frames
  }

  private func append(to frames: inout [Frame]) {
    switch self {
    case .welcome(
      let epoch, let sequence, let lastNumber, let forgottenThrough, let heartbeat, let updates,
      let generation, let limits, let schema):
      frames.reserveCapacity(frames.count + 12)
      frames.append(Frame(utf8: "WELCOME"))
      frames.append(Frame(bigEndian: epoch.rawValue))
      frames.append(Frame(bigEndian: sequence))
      frames.append(Frame(bigEndian: lastNumber))
      frames.append(Frame(bigEndian: forgottenThrough))
      frames.append(Frame(bigEndian: heartbeat))
      frames.append(Frame(utf8: updates))
      frames.append(Frame(bigEndian: generation))
      frames.append(Frame(bigEndian: limits.maximumPayloadBytes))
      frames.append(Frame(bigEndian: limits.maximumTagBytes))
      frames.append(Frame(bigEndian: limits.maximumClientIDBytes))
      frames.append(schema ?? [])
    case .state(let epoch, let sequence, let hash, let document):
      frames.reserveCapacity(frames.count + 5)
      frames.append(Frame(utf8: "STATE"))
      frames.append(Frame(bigEndian: epoch.rawValue))
      frames.append(Frame(bigEndian: sequence))
      frames.append(Frame(bigEndian: hash))
      frames.append(document)
    case .deltas(let epoch, let deltas):
      frames.reserveCapacity(frames.count + 2 + deltas.frameCount)
      frames.append(Frame(utf8: "DELTAS"))
      frames.append(Frame(bigEndian: epoch.rawValue))
      deltas.append(to: &frames)
    case .stale(let epoch, let sequence):
      frames.append(Frame(utf8: "STALE"))
      frames.append(Frame(bigEndian: epoch.rawValue))
      frames.append(Frame(bigEndian: sequence))
    case .ack(let client, let number, let epoch, let sequence):
      frames.reserveCapacity(frames.count + 5)
      frames.append(ControlReply.ackCommand)
      frames.append(Frame(utf8: client))
      frames.append(Frame(bigEndian: number))
      frames.append(Frame(bigEndian: epoch.rawValue))
      frames.append(Frame(bigEndian: sequence))
    case .reject(let client, let number, let rejection):
      frames.reserveCapacity(frames.count + 5)
      frames.append(Frame(utf8: "REJECT"))
      frames.append(Frame(utf8: client))
      frames.append(Frame(bigEndian: number))
      frames.append(Frame(utf8: rejection.code.rawValue))
      frames.append(Frame(utf8: rejection.message))
    case .pong(let epoch, let sequence):
      frames.append(Frame(utf8: "PONG"))
      frames.append(Frame(bigEndian: epoch.rawValue))
      frames.append(Frame(bigEndian: sequence))
    case .stats(let document):
      frames.append(Frame(utf8: "STATS"))
      frames.append(document)
    case .error(let code, let message):
      frames.append(Frame(utf8: "ERROR"))
      frames.append(Frame(utf8: code.rawValue))
      frames.append(Frame(utf8: message))
    case .keys(let count, let removed):
      frames.append(Frame(utf8: "KEYS"))
      frames.append(Frame(bigEndian: count))
      frames.append(Frame(utf8: removed.joined(separator: " ")))
    case .redirect(let control, let updates, let fencingEpoch, let holder):
      frames.append(Frame(utf8: "REDIRECT"))
      frames.append(Frame(utf8: control))
      frames.append(Frame(utf8: updates))
      frames.append(Frame(bigEndian: fencingEpoch))
      frames.append(Frame(utf8: holder))
    case .handingOver(let holder, let fencingEpoch):
      frames.append(Frame(utf8: "HANDING-OVER"))
      frames.append(Frame(utf8: holder))
      frames.append(Frame(bigEndian: fencingEpoch))
    }
  }

  /// The command frame of `ACK`, the reply to every applied action, made once.
  private static let ackCommand = Frame(utf8: "ACK")

  /// Parses a reply received on a follower's DEALER socket.
  public init(frames: [Frame]) throws(ProtocolViolation) {
    var reader = try FrameReader.command(of: frames)
    switch reader.command {
    case "WELCOME":
      let welcome = try Self.welcome(reading: &reader)
      self = welcome
    case "STATE":
      self = .state(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.ordinal("sequence"),
        stateHash: try reader.integer("hash"), document: try reader.bytes("state"))
    case "DELTAS":
      let epoch = Epoch(rawValue: try reader.integer("epoch"))
      self = .deltas(epoch, try [Delta](reading: &reader))
    case "KEYS":
      let count = try reader.integer("key count")
      let removed = try reader.text("removed keys", limit: 1 << 20)
      self = .keys(count: count, removed: removed.split(separator: " ").map(String.init))
    case "STALE":
      self = .stale(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.ordinal("sequence"))
    case "ACK":
      self = .ack(
        client: try reader.text("client"), number: try reader.ordinal("number"),
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.ordinal("sequence"))
    case "REJECT":
      let client = try reader.text("client")
      let number = try reader.ordinal("number")
      let code = try reader.text("code", limit: 64)
      let message = try reader.text("message", limit: 4096)
      self = .reject(
        client: client, number: number,
        Rejection(code: Rejection.Code(rawValue: code) ?? .refused, message: message))
    case "PONG":
      self = .pong(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.ordinal("sequence"))
    case "STATS":
      self = .stats(document: try reader.bytes("statistics"))
    case "REDIRECT":
      self = .redirect(
        control: try reader.text("control endpoint", limit: 1024),
        updates: try reader.text("updates endpoint", limit: 1024),
        fencingEpoch: try reader.integer("fencing epoch"),
        holder: try reader.text("holder", limit: 1024))
    case "HANDING-OVER":
      self = .handingOver(
        holder: try reader.text("holder", limit: 1024),
        fencingEpoch: try reader.integer("fencing epoch"))
    case "ERROR":
      self = .error(
        code: ErrorCode(rawValue: try reader.text("code", limit: 64)),
        message: try reader.text("message", limit: 4096))
    default:
      throw ProtocolViolation("unknown reply command '\(reader.command)'", code: .unknownCommand)
    }
    try reader.finish()
  }
  /// Reads the frames of a `WELCOME` after its command (a leader without the schema frame
  /// sends none).
  private static func welcome(
    reading reader: inout FrameReader
  ) throws(ProtocolViolation)
    -> ControlReply
  {
    let epoch = Epoch(rawValue: try reader.integer("epoch"))
    let sequence = try reader.ordinal("sequence")
    let lastNumber = try reader.ordinal("last number")
    let forgottenThrough = try reader.ordinal("forgotten through")
    let heartbeat = try reader.integer("heartbeat interval")
    let updates = try reader.text("updates endpoint", limit: 1024)
    let generation = try reader.integer("generation")
    let limits = ProtocolLimits(
      maximumPayloadBytes: try reader.integer("largest payload"),
      maximumTagBytes: try reader.integer("longest tag"),
      maximumClientIDBytes: try reader.integer("longest client id"))
    let schema = reader.hasMore ? try reader.bytes("schema") : []
    return .welcome(
      epoch, sequence: sequence, lastNumber: lastNumber, forgottenThrough: forgottenThrough,
      heartbeatMilliseconds: heartbeat, updates: updates, generation: generation, limits: limits,
      schema: schema.isEmpty ? nil : schema)
  }
}
