/// The leader's answer on the control socket to a ``ControlRequest``.
///
/// | command | frames after the command |
/// |---|---|
/// | `WELCOME` | epoch, sequence, client's last action number, heartbeat interval (ms), updates endpoint |
/// | `STATE` | epoch, sequence, state hash, state (canonical JSON) |
/// | `DELTAS` | epoch, count, then per delta: sequence, origin, number, tag, patch |
/// | `STALE` | epoch, sequence |
/// | `ACK` | client id, action number, epoch, sequence |
/// | `REJECT` | client id, action number, reason code, message |
/// | `PONG` | epoch, sequence |
/// | `STATS` | statistics (JSON) |
/// | `ERROR` | code, message |
public enum ControlReply: Sendable, Equatable {
  case welcome(
    Epoch, sequence: UInt64, lastNumber: UInt64, heartbeatMilliseconds: UInt64, updates: String)
  case state(Epoch, sequence: UInt64, stateHash: UInt64, document: Frame)
  case deltas(Epoch, [Delta])
  case stale(Epoch, sequence: UInt64)
  case ack(client: String, number: UInt64, Epoch, sequence: UInt64)
  case reject(client: String, number: UInt64, Rejection)
  case pong(Epoch, sequence: UInt64)
  case stats(document: Frame)
  case error(code: String, message: String)

  /// The message as ZeroMQ frames.
  public var frames: [Frame] {
    switch self {
    case .welcome(let epoch, let sequence, let lastNumber, let heartbeat, let updates):
      [
        Frame(utf8: "WELCOME"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence),
        Frame(bigEndian: lastNumber), Frame(bigEndian: heartbeat), Frame(utf8: updates),
      ]
    case .state(let epoch, let sequence, let hash, let document):
      [
        Frame(utf8: "STATE"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence),
        Frame(bigEndian: hash), document,
      ]
    case .deltas(let epoch, let deltas):
      [
        Frame(utf8: "DELTAS"), Frame(bigEndian: epoch.rawValue),
        Frame(bigEndian: UInt64(deltas.count)),
      ] + deltas.flatMap(\.frames)
    case .stale(let epoch, let sequence):
      [Frame(utf8: "STALE"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence)]
    case .ack(let client, let number, let epoch, let sequence):
      [
        Frame(utf8: "ACK"), Frame(utf8: client), Frame(bigEndian: number),
        Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence),
      ]
    case .reject(let client, let number, let rejection):
      [
        Frame(utf8: "REJECT"), Frame(utf8: client), Frame(bigEndian: number),
        Frame(utf8: rejection.code.rawValue), Frame(utf8: rejection.message),
      ]
    case .pong(let epoch, let sequence):
      [Frame(utf8: "PONG"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: sequence)]
    case .stats(let document):
      [Frame(utf8: "STATS"), document]
    case .error(let code, let message):
      [Frame(utf8: "ERROR"), Frame(utf8: code), Frame(utf8: message)]
    }
  }

  /// Parses a reply received on a follower's DEALER socket.
  public init(frames: [Frame]) throws(ProtocolViolation) {
    var reader = try FrameReader.command(of: frames)
    switch reader.command {
    case "WELCOME":
      self = .welcome(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.integer("sequence"),
        lastNumber: try reader.integer("last number"),
        heartbeatMilliseconds: try reader.integer("heartbeat interval"),
        updates: try reader.text("updates endpoint", limit: 1024))
    case "STATE":
      self = .state(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.integer("sequence"),
        stateHash: try reader.integer("hash"), document: try reader.bytes("state"))
    case "DELTAS":
      let epoch = Epoch(rawValue: try reader.integer("epoch"))
      let count = try reader.integer("count")
      guard count <= UInt64(frames.count) else {
        throw ProtocolViolation("DELTAS: count \(count) exceeds the frames sent")
      }
      var deltas: [Delta] = []
      for _ in 0..<count { deltas.append(try Delta(reading: &reader)) }
      self = .deltas(epoch, deltas)
    case "STALE":
      self = .stale(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.integer("sequence"))
    case "ACK":
      self = .ack(
        client: try reader.text("client"), number: try reader.integer("number"),
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.integer("sequence"))
    case "REJECT":
      let client = try reader.text("client")
      let number = try reader.integer("number")
      let code = try reader.text("code", limit: 64)
      let message = try reader.text("message", limit: 4096)
      self = .reject(
        client: client, number: number,
        Rejection(code: Rejection.Code(rawValue: code) ?? .refused, message: message))
    case "PONG":
      self = .pong(
        Epoch(rawValue: try reader.integer("epoch")), sequence: try reader.integer("sequence"))
    case "STATS":
      self = .stats(document: try reader.bytes("statistics"))
    case "ERROR":
      self = .error(
        code: try reader.text("code", limit: 64), message: try reader.text("message", limit: 4096))
    default:
      throw ProtocolViolation("unknown reply command '\(reader.command)'")
    }
    try reader.finish()
  }
}
