import CZeroMQ

extension Message {
  /// A metadata property of the connection the message arrived on (`zmq_msg_gets`), or `nil`
  /// when the connection has none of that name.
  ///
  /// libzmq sets `User-Id` to what the ZAP handler named the authenticated peer, `Peer-Address`
  /// to the peer's IP address, and `Socket-Type` to the peer's socket type. A frame a socket
  /// makes up itself (a ROUTER's routing id) carries none: read the properties of a later frame.
  ///
  /// ```swift
  /// let parts = try router.receiveMessages()
  /// let user = parts.last?.property("User-Id")   // the key's name, with CURVE and ZAP
  /// ```
  public func property(_ name: String) -> String? {
    guard let value = zmq_msg_gets(pointer, name) else { return nil }
    return String(cString: value)
  }

  /// The `User-Id` property: the name the ZAP handler gave the authenticated peer (see
  /// ``property(_:)``); `nil` or empty without authentication.
  public var userID: String? { property("User-Id") }
}

extension Socket {
  /// The bytes of each frame of the next multipart message, with the `User-Id` of the
  /// connection it came from (read from its last frame: see ``Message/userID``), or `nil` when
  /// none arrived in time.
  public func receivePartsWithUserID(
    wait: Wait
  ) throws(ZMQError) -> (
    parts: [[UInt8]], userID: String?
  )? {
    try receiveFrames(wait: wait) { message in
      zmq_msg_gets(message, "User-Id").map { String(cString: $0) }
    }.map { ($0.parts, $0.last) }
  }
}
