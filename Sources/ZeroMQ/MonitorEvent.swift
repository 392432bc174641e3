import CZeroMQ

/// One event of a socket's connection life cycle, as reported by ``Monitor``.
public struct MonitorEvent: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public var kind: Kind
  /// The event's value: a file descriptor, an errno, a reconnect interval or a ZMTP protocol
  /// error code, depending on ``kind`` (see `zmq_socket_monitor`).
  public var value: UInt32
  /// The endpoint concerned, such as `tcp://127.0.0.1:49152`.
  public var endpoint: String

  /// An event from its parts.
  public init(kind: Kind, value: UInt32, endpoint: String) {
    self.kind = kind
    self.value = value
    self.endpoint = endpoint
  }

  /// Decodes the two frames libzmq sends on a monitor socket (16-bit event and 32-bit value
  /// in native byte order, then the endpoint); `nil` when they do not have that shape.
  public init?(frames: [[UInt8]]) {
    guard frames.count == 2, frames[0].count == 6 else { return nil }
    let (code, value) = frames[0].withUnsafeBytes { bytes in
      (
        bytes.loadUnaligned(as: UInt16.self),
        bytes.loadUnaligned(fromByteOffset: 2, as: UInt32.self)
      )
    }
    self.kind = Kind(rawValue: code)
    self.value = value
    self.endpoint = String(decoding: frames[1], as: UTF8.self)
  }

  /// `kind value endpoint`.
  public var description: String { "\(kind) (\(value)) \(endpoint)" }

  /// The kind of a monitor event; also a set of kinds to ask ``Socket/monitor(_:)`` for.
  public struct Kind: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The `ZMQ_EVENT_*` bits.
    public var rawValue: UInt16

    /// Kinds from their `ZMQ_EVENT_*` bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    private init(_ value: Int32) { rawValue = UInt16(truncatingIfNeeded: value) }

    /// `ZMQ_EVENT_CONNECTED`: a connection to a remote peer is established.
    public static let connected = Kind(ZMQ_EVENT_CONNECTED)
    /// `ZMQ_EVENT_CONNECT_DELAYED`: a connect could not complete at once and is pending.
    public static let connectDelayed = Kind(ZMQ_EVENT_CONNECT_DELAYED)
    /// `ZMQ_EVENT_CONNECT_RETRIED`: a reconnect is scheduled; the value is the interval in ms.
    public static let connectRetried = Kind(ZMQ_EVENT_CONNECT_RETRIED)
    /// `ZMQ_EVENT_LISTENING`: the socket is bound and listening.
    public static let listening = Kind(ZMQ_EVENT_LISTENING)
    /// `ZMQ_EVENT_BIND_FAILED`: binding failed; the value is the errno.
    public static let bindFailed = Kind(ZMQ_EVENT_BIND_FAILED)
    /// `ZMQ_EVENT_ACCEPTED`: a connection from a remote peer was accepted.
    public static let accepted = Kind(ZMQ_EVENT_ACCEPTED)
    /// `ZMQ_EVENT_ACCEPT_FAILED`: accepting a connection failed; the value is the errno.
    public static let acceptFailed = Kind(ZMQ_EVENT_ACCEPT_FAILED)
    /// `ZMQ_EVENT_CLOSED`: a connection's underlying descriptor was closed.
    public static let closed = Kind(ZMQ_EVENT_CLOSED)
    /// `ZMQ_EVENT_CLOSE_FAILED`: closing a descriptor failed; the value is the errno.
    public static let closeFailed = Kind(ZMQ_EVENT_CLOSE_FAILED)
    /// `ZMQ_EVENT_DISCONNECTED`: a session was broken off unexpectedly.
    public static let disconnected = Kind(ZMQ_EVENT_DISCONNECTED)
    /// `ZMQ_EVENT_MONITOR_STOPPED`: the monitor was stopped; no more events follow.
    public static let monitorStopped = Kind(ZMQ_EVENT_MONITOR_STOPPED)
    /// `ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL`: a ZMTP handshake failed for an unspecified
    /// reason (often the peer closed the connection); the value is the errno.
    public static let handshakeFailedNoDetail = Kind(ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL)
    /// `ZMQ_EVENT_HANDSHAKE_SUCCEEDED`: the ZMTP handshake (including security) completed.
    public static let handshakeSucceeded = Kind(ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
    /// `ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL`: the handshake failed on a protocol error, such
    /// as a CURVE client using the wrong server key; the value is a `ZMQ_PROTOCOL_ERROR_*`.
    public static let handshakeFailedProtocol = Kind(ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
    /// `ZMQ_EVENT_HANDSHAKE_FAILED_AUTH`: the ZAP handler refused the peer; the value is the
    /// ZAP status code.
    public static let handshakeFailedAuth = Kind(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)

    /// Any of the three handshake failures.
    public static let handshakeFailed: Kind = [
      .handshakeFailedNoDetail, .handshakeFailedProtocol, .handshakeFailedAuth,
    ]
    /// `ZMQ_EVENT_ALL`: every event.
    public static let all = Kind(ZMQ_EVENT_ALL)

    private static let names: [(Kind, String)] = [
      (.connected, "connected"), (.connectDelayed, "connectDelayed"),
      (.connectRetried, "connectRetried"), (.listening, "listening"),
      (.bindFailed, "bindFailed"), (.accepted, "accepted"), (.acceptFailed, "acceptFailed"),
      (.closed, "closed"), (.closeFailed, "closeFailed"), (.disconnected, "disconnected"),
      (.monitorStopped, "monitorStopped"), (.handshakeFailedNoDetail, "handshakeFailedNoDetail"),
      (.handshakeSucceeded, "handshakeSucceeded"),
      (.handshakeFailedProtocol, "handshakeFailedProtocol"),
      (.handshakeFailedAuth, "handshakeFailedAuth"),
    ]

    /// The names of the kinds in the set, such as `connected` or `[accepted, closed]`.
    public var description: String {
      let matching = Self.names.filter { contains($0.0) }.map(\.1)
      if matching.count == 1 { return matching[0] }
      return "[" + matching.joined(separator: ", ") + "]"
    }
  }
}
