import CZeroMQ

extension SocketOption where Value == Duration {
  /// `ZMQ_LINGER`: how long unsent messages are kept after ``Socket/close()``; negative waits
  /// forever, zero drops them at once.
  public static var linger: Self { .milliseconds(ZMQ_LINGER, "ZMQ_LINGER") }
  /// `ZMQ_SNDTIMEO`: how long a blocking send waits before failing with
  /// ``ZMQError/Code/wouldBlock``; negative waits forever (the default).
  public static var sendTimeout: Self { .milliseconds(ZMQ_SNDTIMEO, "ZMQ_SNDTIMEO") }
  /// `ZMQ_RCVTIMEO`: how long a blocking receive waits before failing with
  /// ``ZMQError/Code/wouldBlock``; negative waits forever (the default).
  public static var receiveTimeout: Self { .milliseconds(ZMQ_RCVTIMEO, "ZMQ_RCVTIMEO") }
  /// `ZMQ_HEARTBEAT_IVL`: how often ZMTP PING commands are sent; zero (the default) disables
  /// heartbeats.
  public static var heartbeatInterval: Self {
    .milliseconds(ZMQ_HEARTBEAT_IVL, "ZMQ_HEARTBEAT_IVL")
  }
  /// `ZMQ_HEARTBEAT_TIMEOUT`: how long to wait for any traffic after a PING before the
  /// connection is closed.
  public static var heartbeatTimeout: Self {
    .milliseconds(ZMQ_HEARTBEAT_TIMEOUT, "ZMQ_HEARTBEAT_TIMEOUT")
  }
  /// `ZMQ_HEARTBEAT_TTL`: the time-to-live sent in PINGs, after which the peer closes the
  /// connection if it hears nothing (libzmq rounds it to tenths of a second).
  public static var heartbeatTTL: Self { .milliseconds(ZMQ_HEARTBEAT_TTL, "ZMQ_HEARTBEAT_TTL") }
  /// `ZMQ_RECONNECT_IVL`: the first wait before reconnecting a lost connection; negative
  /// disables reconnection.
  public static var reconnectInterval: Self {
    .milliseconds(ZMQ_RECONNECT_IVL, "ZMQ_RECONNECT_IVL")
  }
  /// `ZMQ_RECONNECT_IVL_MAX`: the longest wait between reconnection attempts (the wait doubles
  /// from ``reconnectInterval`` up to this); zero keeps the interval fixed.
  public static var reconnectIntervalMax: Self {
    .milliseconds(ZMQ_RECONNECT_IVL_MAX, "ZMQ_RECONNECT_IVL_MAX")
  }
  /// `ZMQ_HANDSHAKE_IVL`: the longest a ZMTP handshake may take before the connection closes.
  public static var handshakeInterval: Self {
    .milliseconds(ZMQ_HANDSHAKE_IVL, "ZMQ_HANDSHAKE_IVL")
  }
}

extension SocketOption where Value == Int32 {
  /// `ZMQ_SNDHWM`: how many outgoing messages are queued per peer before the socket drops
  /// (PUB, ROUTER) or blocks (most others); zero means no limit. Set before bind or connect.
  public static var sendHighWaterMark: Self { .int32(ZMQ_SNDHWM, "ZMQ_SNDHWM") }
  /// `ZMQ_RCVHWM`: how many incoming messages are queued per peer; zero means no limit.
  /// Set before bind or connect.
  public static var receiveHighWaterMark: Self { .int32(ZMQ_RCVHWM, "ZMQ_RCVHWM") }
  /// `ZMQ_FD` (read only): a file descriptor that becomes readable when the socket's
  /// ``events`` may have changed; edge-triggered, for use in foreign event loops.
  public static var fileDescriptor: Self { .int32(ZMQ_FD, "ZMQ_FD") }
}

extension SocketOption where Value == Int64 {
  /// `ZMQ_MAXMSGSIZE`: the largest inbound message accepted, in bytes; a peer that sends a
  /// bigger one is disconnected. `-1` (the default) means no limit.
  public static var maxMessageSize: Self { .int64(ZMQ_MAXMSGSIZE, "ZMQ_MAXMSGSIZE") }
}

extension SocketOption where Value == Bool {
  /// `ZMQ_ROUTER_MANDATORY` (write only): a ROUTER fails with
  /// ``ZMQError/Code/hostUnreachable`` instead of silently dropping a message to an unknown
  /// routing id.
  public static var routerMandatory: Self { .bool(ZMQ_ROUTER_MANDATORY, "ZMQ_ROUTER_MANDATORY") }
  /// `ZMQ_ROUTER_HANDOVER` (write only): a new connection with a routing id already in use
  /// takes it over instead of being refused.
  public static var routerHandover: Self { .bool(ZMQ_ROUTER_HANDOVER, "ZMQ_ROUTER_HANDOVER") }
  /// `ZMQ_XPUB_VERBOSE` (write only): an XPUB passes every subscription message up, not only
  /// the first for each topic.
  public static var xpubVerbose: Self { .bool(ZMQ_XPUB_VERBOSE, "ZMQ_XPUB_VERBOSE") }
  /// `ZMQ_XPUB_NODROP` (write only): an XPUB blocks (or fails with
  /// ``ZMQError/Code/wouldBlock``) at the high-water mark instead of dropping.
  public static var xpubNoDrop: Self { .bool(ZMQ_XPUB_NODROP, "ZMQ_XPUB_NODROP") }
  /// `ZMQ_IMMEDIATE`: queue messages only to completed connections, so sends block or fail
  /// rather than wait for a peer that is not there yet.
  public static var immediate: Self { .bool(ZMQ_IMMEDIATE, "ZMQ_IMMEDIATE") }
  /// `ZMQ_IPV6`: allow IPv6 on tcp endpoints.
  public static var ipv6: Self { .bool(ZMQ_IPV6, "ZMQ_IPV6") }
  /// `ZMQ_CURVE_SERVER`: this socket is a CURVE server (it needs ``curveSecretKey``).
  public static var curveServer: Self { .bool(ZMQ_CURVE_SERVER, "ZMQ_CURVE_SERVER") }
  /// `ZMQ_RCVMORE` (read only): the last frame received has more frames after it.
  public static var receiveMore: Self { .bool(ZMQ_RCVMORE, "ZMQ_RCVMORE") }
}

extension SocketOption where Value == [UInt8] {
  /// `ZMQ_ROUTING_ID`: the identity this socket presents to a ROUTER peer, 1 to 255 bytes,
  /// not starting with a zero byte. Set before connecting.
  public static var routingID: Self { .bytes(ZMQ_ROUTING_ID, "ZMQ_ROUTING_ID") }
  /// `ZMQ_SUBSCRIBE` (write only): add a topic prefix filter; see `Socket.subscribe(to:)`.
  public static var subscribe: Self { .bytes(ZMQ_SUBSCRIBE, "ZMQ_SUBSCRIBE") }
  /// `ZMQ_UNSUBSCRIBE` (write only): remove a topic prefix filter.
  public static var unsubscribe: Self { .bytes(ZMQ_UNSUBSCRIBE, "ZMQ_UNSUBSCRIBE") }
}

extension SocketOption where Value == String {
  /// `ZMQ_LAST_ENDPOINT` (read only): the endpoint last bound, with the chosen port.
  public static var lastEndpoint: Self { .string(ZMQ_LAST_ENDPOINT, "ZMQ_LAST_ENDPOINT") }
  /// `ZMQ_ZAP_DOMAIN`: the authentication domain passed to the ZAP handler.
  public static var zapDomain: Self { .string(ZMQ_ZAP_DOMAIN, "ZMQ_ZAP_DOMAIN") }
}

extension SocketOption where Value == CurveKey {
  /// `ZMQ_CURVE_PUBLICKEY`: this socket's long-term public key (clients and servers).
  public static var curvePublicKey: Self { .curveKey(ZMQ_CURVE_PUBLICKEY, "ZMQ_CURVE_PUBLICKEY") }
  /// `ZMQ_CURVE_SECRETKEY`: this socket's long-term secret key (clients and servers).
  public static var curveSecretKey: Self { .curveKey(ZMQ_CURVE_SECRETKEY, "ZMQ_CURVE_SECRETKEY") }
  /// `ZMQ_CURVE_SERVERKEY`: the server's public key a CURVE client expects; setting it makes
  /// the socket a CURVE client.
  public static var curveServerKey: Self { .curveKey(ZMQ_CURVE_SERVERKEY, "ZMQ_CURVE_SERVERKEY") }
}

extension SocketOption where Value == PollEvents {
  /// `ZMQ_EVENTS` (read only): whether a message can be received or sent right now.
  public static var events: Self {
    Self(
      ZMQ_EVENTS, "ZMQ_EVENTS", capacity: 4,
      encode: { SocketOption<Int32>.int32(ZMQ_EVENTS, "").encode(Int32($0.rawValue)) },
      decode: {
        PollEvents(
          rawValue: Int16(truncatingIfNeeded: SocketOption<Int32>.int32(ZMQ_EVENTS, "").decode($0)))
      })
  }
}
