/// A request a follower sends to the leader's control socket (its DEALER to the leader's ROUTER).
///
/// | command | frames after the command | answered with |
/// |---|---|---|
/// | `HELLO` | protocol version, client id, schema fingerprint, generation, schema | `WELCOME`, `ERROR` or (from a standby) `REDIRECT` |
/// | `SNAPSHOT` | (none) | `STATE` |
/// | `CATCHUP` | epoch, first wanted sequence | `DELTAS` or `STALE` |
/// | `DISPATCH` | the action: number, generation, client id, tag, payload (``DispatchBody``) | `ACK` or `REJECT` |
/// | `DISPATCH-QUIET` | as `DISPATCH` | nothing once applied (the delta answers), else as `DISPATCH` |
/// | `PING` | client id, replica sequence | `PONG` |
/// | `STATS` | (none) | `STATS` |
/// | `RELOAD-KEYS` | (none) | `KEYS` (an admin key's request) |
/// | `STEP-DOWN` | (none) | `HANDING-OVER`, or `ERROR` `no-lease` (an admin key's request) |
public enum ControlRequest: Sendable, Equatable {
  /// `generation` is the one the process's last `WELCOME` handed it, 0 before its first;
  /// `schema` the canonical JSON of the follower's ``ApplicationSchema`` (an empty frame, or
  /// none from an older follower, for none: the fingerprints must then match).
  case hello(
    version: String, client: String, fingerprint: String, generation: UInt64 = 0,
    schema: Frame? = nil)
  case snapshot
  case catchUp(Epoch, from: UInt64)
  case dispatch(ForwardedAction)
  /// Like ``dispatch(_:)``, for a follower that reads the deltas: an applied action gets no
  /// `ACK`, as the delta naming its origin says the same.
  case dispatchQuietly(ForwardedAction)
  case ping(client: String, sequence: UInt64)
  case stats
  /// Reads the leader's key store again, as `SIGHUP` does.
  case reloadKeys
  /// Asks the active leader of standby leaders to hand the lease over cleanly: commit and
  /// answer the batch in flight, give the lease up, and become a standby.
  case stepDown

  /// The protocol version this code speaks, sent in `HELLO`.
  public static let version = "TSP/7"

  /// The message as ZeroMQ frames.
  public var frames: [Frame] {
    switch self {
    case .hello(let version, let client, let fingerprint, let generation, let schema):
      [
        Frame(utf8: "HELLO"), Frame(utf8: version), Frame(utf8: client), Frame(utf8: fingerprint),
        Frame(bigEndian: generation), schema ?? [],
      ]
    case .snapshot:
      [Frame(utf8: "SNAPSHOT")]
    case .catchUp(let epoch, let from):
      [Frame(utf8: "CATCHUP"), Frame(bigEndian: epoch.rawValue), Frame(bigEndian: from)]
    case .dispatch(let action):
      action.frames(command: Self.dispatchCommand)
    case .dispatchQuietly(let action):
      action.frames(command: Self.dispatchQuietlyCommand)
    case .ping(let client, let sequence):
      [Frame(utf8: "PING"), Frame(utf8: client), Frame(bigEndian: sequence)]
    case .stats:
      [Frame(utf8: "STATS")]
    case .reloadKeys:
      [Frame(utf8: "RELOAD-KEYS")]
    case .stepDown:
      [Frame(utf8: "STEP-DOWN")]
    }
  }

  /// The command frames of `DISPATCH` and `DISPATCH-QUIET`, sent for every action, made once.
  private static let dispatchCommand = Frame(utf8: "DISPATCH")
  private static let dispatchQuietlyCommand = Frame(utf8: "DISPATCH-QUIET")

  /// Parses a request (the frames after the ROUTER's routing id).
  public init(frames: [Frame]) throws(ProtocolViolation) {
    try self.init(frames: frames, from: 0)
  }

  /// Parses the request in `frames[start...]` (a ROUTER's message from 1 on, after its routing
  /// id), without copying the frames out first.
  package init(frames: [Frame], from start: Int) throws(ProtocolViolation) {
    var reader = try FrameReader.command(of: frames, at: start)
    switch reader.command {
    case "HELLO":
      let version = try reader.text("version", limit: 32)
      let client = try reader.clientID()
      let fingerprint = try reader.text("fingerprint")
      // An older follower's HELLO ends at its fingerprint: the leader refuses its version.
      let generation =
        version == Self.version || reader.hasMore ? try reader.integer("generation") : 0
      // The schema frame came later: a follower without it compares by fingerprint only.
      let schema = reader.hasMore ? try reader.bytes("schema") : []
      self = .hello(
        version: version, client: client, fingerprint: fingerprint, generation: generation,
        schema: schema.isEmpty ? nil : schema)
    case "SNAPSHOT":
      self = .snapshot
    case "CATCHUP":
      self = .catchUp(
        Epoch(rawValue: try reader.integer("epoch")), from: try reader.ordinal("from"))
    case "DISPATCH":
      self = .dispatch(try ForwardedAction(reading: &reader))
    case "DISPATCH-QUIET":
      self = .dispatchQuietly(try ForwardedAction(reading: &reader))
    case "PING":
      self = .ping(client: try reader.clientID(), sequence: try reader.ordinal("sequence"))
    case "STATS":
      self = .stats
    case "RELOAD-KEYS":
      self = .reloadKeys
    case "STEP-DOWN":
      self = .stepDown
    default:
      throw ProtocolViolation("unknown control command '\(reader.command)'", code: .unknownCommand)
    }
    try reader.finish()
  }
}

/// An action a follower forwards to the leader: its client id, its number, its tag and its
/// payload as JSON bytes.
public struct ForwardedAction: Sendable, Equatable {
  public var client: String
  public var number: UInt64
  /// The generation the sender's last `WELCOME` handed it; 0 for a sender that said no
  /// `HELLO`, whose action the leader checks against no owner's generation.
  public var generation: UInt64
  public var tag: String
  public var payload: Frame

  public init(
    client: String, number: UInt64, generation: UInt64 = 0, tag: String, payload: Frame
  ) {
    self.client = client
    self.number = number
    self.generation = generation
    self.tag = tag
    self.payload = payload
  }

  /// Reads the body frame after a dispatch command (see ``DispatchBody``).
  package init(reading reader: inout FrameReader) throws(ProtocolViolation) {
    self = try DispatchBody.read(try reader.bytes("action"), command: reader.command)
  }

  /// The request's frames: the `command` frame and the body.
  package func frames(command: Frame) -> [Frame] {
    [command, DispatchBody.frame(of: self)]
  }
}
