extension HTTPServer {
  /// Where a server listens and the limits it applies.
  public struct Configuration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal (default `127.0.0.1`; `0.0.0.0` for all).
    public var host: String
    /// The port to bind; 0 (the default) picks a free one, read back from ``HTTPServer/port``.
    public var port: Int
    /// The largest request body accepted; a larger one is answered 413 (default 1 MiB).
    public var maximumBodySize: Int
    /// Seconds of inactivity after which a connection is closed (`MHD_OPTION_CONNECTION_TIMEOUT`;
    /// 0 for never). Event streams waiting for events are not subject to it.
    public var connectionTimeout: Int
    /// How often every open event stream gets a comment line, which is how a stream notices a
    /// client that went away (libmicrohttpd cannot see a disconnect while a stream waits);
    /// `nil` for never.
    public var keepAliveInterval: Duration?
    /// The most bytes an event stream buffers for a slow client before it is ended.
    public var maximumStreamBuffer: Int

    /// A configuration; every parameter has the default described on its property.
    public init(
      host: String = "127.0.0.1", port: Int = 0, maximumBodySize: Int = 1 << 20,
      connectionTimeout: Int = 60, keepAliveInterval: Duration? = .seconds(15),
      maximumStreamBuffer: Int = 4 << 20
    ) {
      precondition((0...65535).contains(port), "HTTPServer: port \(port) out of range")
      precondition(maximumBodySize >= 0, "HTTPServer: negative maximumBodySize")
      self.host = host
      self.port = port
      self.maximumBodySize = maximumBodySize
      self.connectionTimeout = connectionTimeout
      self.keepAliveInterval = keepAliveInterval
      self.maximumStreamBuffer = maximumStreamBuffer
    }
  }
}
