import CZeroMQ

// Sending and receiving. Every operation takes a `Wait`; the ones that return `Bool` or an
// optional report "not ready in time" (EAGAIN) as `false` or `nil`, and throw for real errors.

extension Socket {
  /// Sends one frame holding a copy of `bytes` (`zmq_send`); `more` marks a frame that is
  /// followed by more frames of the same multipart message (`ZMQ_SNDMORE`).
  ///
  /// Returns `false` when the frame could not be queued in time (`EAGAIN`). Frames of up to 33
  /// bytes are copied into libzmq's message itself, so no allocation happens for them.
  @inlinable
  @discardableResult
  public func send(
    _ bytes: some Collection<UInt8>, more: Bool = false, wait: Wait = .blocking
  )
    throws(ZMQError) -> Bool
  {
    let flags = more ? ZMQ_SNDMORE : 0
    let handle = handle
    let outcome = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(ZMQError) in
        try perform("zmq_send", wait, .writable) { mode in
          zmq_send(handle, buffer.baseAddress, buffer.count, flags | mode)
        }
      }
    }
    if let outcome { return try outcome.get() != nil }
    return try send(Array(bytes), more: more, wait: wait)
  }

  /// Sends the UTF-8 of `text` as one frame, like the byte-collection `send`.
  @inlinable
  @discardableResult
  public func send(
    _ text: String, more: Bool = false, wait: Wait = .blocking
  ) throws(ZMQError)
    -> Bool
  {
    var text = text
    return try text.withUTF8 { buffer in
      Result { () throws(ZMQError) in try send(buffer, more: more, wait: wait) }
    }.get()
  }

  /// Sends `message` without copying it (`zmq_msg_send`); on success the message is left
  /// empty and can be reused.
  @inlinable
  @discardableResult
  public func send(
    _ message: Message, more: Bool = false, wait: Wait = .blocking
  )
    throws(ZMQError) -> Bool
  {
    let flags = more ? ZMQ_SNDMORE : 0
    let handle = handle
    return try perform("zmq_msg_send", wait, .writable) { mode in
      zmq_msg_send(message.pointer, handle, flags | mode)
    } != nil
  }

  /// Sends the frames of one multipart message. Only the first frame can wait: once it is
  /// queued, libzmq accepts the rest, so a multipart message is sent whole or not at all.
  @inlinable
  @discardableResult
  public func send<Parts: Collection>(
    parts: Parts, wait: Wait = .blocking
  ) throws(ZMQError)
    -> Bool where Parts.Element: Collection<UInt8>
  {
    precondition(!parts.isEmpty, "a multipart message needs at least one frame")
    var index = parts.startIndex
    var first = true
    while index != parts.endIndex {
      let part = parts[index]
      parts.formIndex(after: &index)
      let more = index != parts.endIndex
      let sent = try send(part, more: more, wait: first ? wait : .blocking)
      if !sent {
        precondition(first, "libzmq refused a later frame of a multipart message")
        return false
      }
      first = false
    }
    return true
  }

  /// Sends the frames of one multipart message without copying them, like `send(parts:wait:)`.
  @inlinable
  @discardableResult
  public func send(messages: [Message], wait: Wait = .blocking) throws(ZMQError) -> Bool {
    precondition(!messages.isEmpty, "a multipart message needs at least one frame")
    for (index, message) in messages.enumerated() {
      let more = index < messages.count - 1
      guard try send(message, more: more, wait: index == 0 ? wait : .blocking) else {
        return false
      }
    }
    return true
  }

  /// Receives the next frame into `message`, replacing its content (`zmq_msg_recv`): the
  /// allocation-free way to read a stream. Returns `false` when nothing arrived in time.
  @inlinable
  public func receive(into message: Message, wait: Wait = .blocking) throws(ZMQError) -> Bool {
    let handle = handle
    return try perform("zmq_msg_recv", wait, .readable) { mode in
      zmq_msg_recv(message.pointer, handle, mode)
    } != nil
  }

  /// The next frame, or `nil` when nothing arrived in time.
  @inlinable
  public func receive(wait: Wait) throws(ZMQError) -> Message? {
    let message = Message()
    return try receive(into: message, wait: wait) ? message : nil
  }

  /// The next frame, waiting for it; throws ``ZMQError/Code/wouldBlock`` when a
  /// ``SocketOption/receiveTimeout`` expires first.
  @inlinable
  public func receive() throws(ZMQError) -> Message {
    guard let message = try receive(wait: .blocking) else {
      throw ZMQError(code: .wouldBlock, call: "zmq_msg_recv")
    }
    return message
  }

  /// All frames of the next multipart message, or `nil` when none arrived in time.
  public func receiveMessages(wait: Wait) throws(ZMQError) -> [Message]? {
    guard let first = try receive(wait: wait) else { return nil }
    var messages = [first]
    while messages[messages.count - 1].hasMore {
      messages.append(try receive())
    }
    return messages
  }

  /// All frames of the next multipart message, waiting for it.
  public func receiveMessages() throws(ZMQError) -> [Message] {
    guard let messages = try receiveMessages(wait: .blocking) else {
      throw ZMQError(code: .wouldBlock, call: "zmq_msg_recv")
    }
    return messages
  }

  /// The bytes of each frame of the next multipart message, or `nil` when none arrived in time.
  public func receiveParts(wait: Wait) throws(ZMQError) -> [[UInt8]]? {
    try receiveFrames(wait: wait) { _ in () }?.parts
  }

  /// The bytes of each frame of the next multipart message and what `readLast` reads of its
  /// last frame (its metadata), or `nil` when none arrived in time.
  ///
  /// The frames go through one `zmq_msg_t` on the stack rather than a ``Message``: a loop that
  /// drains a socket asks once more than there are messages, and the last, empty-handed call
  /// then costs no allocation either.
  func receiveFrames<Last>(
    wait: Wait, readingLast readLast: (UnsafeMutablePointer<zmq_msg_t>) -> Last
  ) throws(ZMQError) -> (parts: [[UInt8]], last: Last)? {
    let handle = handle
    return try withUnsafeTemporaryAllocation(of: zmq_msg_t.self, capacity: 1) {
      buffer throws(ZMQError) -> (parts: [[UInt8]], last: Last)? in
      let message = buffer.baseAddress!
      zmq_msg_init(message)
      defer { zmq_msg_close(message) }
      guard
        try perform("zmq_msg_recv", wait, .readable, { zmq_msg_recv(message, handle, $0) }) != nil
      else { return nil }
      // Most multipart messages have a handful of frames: one allocation instead of regrowing.
      var parts: [[UInt8]] = []
      parts.reserveCapacity(zmq_msg_more(message) != 0 ? 8 : 1)
      parts.append(Self.bytes(of: message))
      while zmq_msg_more(message) != 0 {
        _ = try perform("zmq_msg_recv", .blocking, .readable) { zmq_msg_recv(message, handle, $0) }
        parts.append(Self.bytes(of: message))
      }
      return (parts, readLast(message))
    }
  }

  /// A copy of the bytes of a received frame.
  private static func bytes(of message: UnsafeMutablePointer<zmq_msg_t>) -> [UInt8] {
    let count = zmq_msg_size(message)
    guard count > 0, let data = zmq_msg_data(message) else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: count))
  }

  /// The bytes of each frame of the next multipart message, waiting for it.
  public func receiveParts() throws(ZMQError) -> [[UInt8]] {
    guard let parts = try receiveParts(wait: .blocking) else {
      throw ZMQError(code: .wouldBlock, call: "zmq_msg_recv")
    }
    return parts
  }

  /// Runs `operation` with the `ZMQ_DONTWAIT` flag or not as `wait` says, retrying on `EINTR`
  /// and, for a timeout, polling until the socket is ready or the time is up. Returns `nil`
  /// for `EAGAIN`.
  @inlinable
  func perform(
    _ call: StaticString, _ wait: Wait, _ events: PollEvents, _ operation: (Int32) -> Int32
  ) throws(ZMQError) -> Int32? {
    switch wait {
    case .blocking:
      return try zmqCallUnlessWouldBlock("\(call)") { operation(0) }
    case .nonBlocking:
      return try zmqCallUnlessWouldBlock("\(call)") { operation(ZMQ_DONTWAIT) }
    case .timeout(let duration):
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: duration)
      while true {
        if let result = try zmqCallUnlessWouldBlock("\(call)", { operation(ZMQ_DONTWAIT) }) {
          return result
        }
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return nil }
        _ = try poll(events, timeout: remaining)
      }
    }
  }

  /// Waits up to `timeout` for `events` on this socket alone (`zmq_poll`); returns the
  /// events that are ready (empty on timeout).
  public func poll(_ events: PollEvents, timeout: Duration) throws(ZMQError) -> PollEvents {
    var item = zmq_pollitem_t(socket: handle, fd: 0, events: events.rawValue, revents: 0)
    let milliseconds = timeout < .zero ? -1 : Int(Self.roundedUpMilliseconds(timeout))
    _ = try zmqCall("zmq_poll") { zmq_poll(&item, 1, milliseconds) }
    return PollEvents(rawValue: item.revents)
  }

  /// Whole milliseconds of a non-negative `duration`, rounded up so a wait never ends early.
  static func roundedUpMilliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let partial = attoseconds / perMillisecond + (attoseconds % perMillisecond > 0 ? 1 : 0)
    return seconds.multipliedReportingOverflow(by: 1000).overflow
      ? Int64(Int32.max) : min(seconds * 1000 + partial, Int64(Int32.max))
  }
}
