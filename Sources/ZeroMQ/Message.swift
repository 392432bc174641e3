import CZeroMQ

/// One message frame backed by a libzmq `zmq_msg_t`: received without copying, sent without
/// copying, and reusable.
///
/// ```swift
/// let message = Message()
/// while try socket.receive(into: message) {     // reuses the same zmq_msg_t each time
///   handle(message.count, message.hasMore)
///   message.withUnsafeBytes { bytes in ... }     // the frame's bytes, no copy
/// }
/// ```
///
/// A message is not `Sendable`; copy its ``bytes`` to hand them to another thread.
public final class Message {
  @usableFromInline let pointer: UnsafeMutablePointer<zmq_msg_t>

  /// An empty message (`zmq_msg_init`), ready to receive into.
  public init() {
    pointer = .allocate(capacity: 1)
    zmq_msg_init(pointer)
  }

  /// A message holding a copy of `bytes` (`zmq_msg_init_size`).
  public init(_ bytes: some Collection<UInt8>) {
    pointer = .allocate(capacity: 1)
    let status = zmq_msg_init_size(pointer, bytes.count)
    precondition(status == 0, "zmq_msg_init_size(\(bytes.count)) failed: out of memory")
    let target = UnsafeMutableRawBufferPointer(start: zmq_msg_data(pointer), count: bytes.count)
    if bytes.withContiguousStorageIfAvailable({
      target.copyMemory(from: UnsafeRawBufferPointer($0))
    })
      == nil
    {
      target.copyBytes(from: bytes)
    }
  }

  /// A message holding a copy of `bytes` that calls `released` once libzmq is done with it
  /// (`zmq_msg_init_data` with a free function): after a send, when it has been handed to the
  /// connection (written to the network, or passed to the receiving socket over `inproc` and
  /// closed there) or dropped with the connection, on one of libzmq's I/O threads or the
  /// receiver's; when it is not sent, as the message is deinitialized. A sender can so count
  /// what it has queued and not yet sent:
  ///
  /// ```swift
  /// queued.add(bytes.count, ordering: .relaxed)
  /// let message = Message(bytes) { queued.subtract(bytes.count, ordering: .relaxed) }
  /// try socket.send(message, wait: .nonBlocking)
  /// ```
  ///
  /// `released` runs exactly once; it must not block, nor use the socket the message was
  /// sent on.
  public init(_ bytes: some Collection<UInt8>, released: @escaping @Sendable () -> Void) {
    pointer = .allocate(capacity: 1)
    let count = bytes.count
    let data = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
    if bytes.withContiguousStorageIfAvailable({
      data.copyMemory(from: UnsafeRawBufferPointer($0))
    })
      == nil
    {
      data.copyBytes(from: bytes)
    }
    let hint = Unmanaged.passRetained(Release(released)).toOpaque()
    let status = zmq_msg_init_data(
      pointer, data.baseAddress, count,
      { data, hint in
        data?.deallocate()
        guard let hint else { return }
        Unmanaged<Release>.fromOpaque(hint).takeRetainedValue().action()
      }, hint)
    precondition(status == 0, "zmq_msg_init_data(\(count)) failed: out of memory")
  }

  /// A message holding the UTF-8 of `text`.
  public convenience init(_ text: String) {
    self.init(text.utf8)
  }

  deinit {
    zmq_msg_close(pointer)
    pointer.deallocate()
  }

  /// The size of the frame in bytes.
  @inlinable public var count: Int { zmq_msg_size(pointer) }

  /// Whether more frames of the same multipart message follow this one (`zmq_msg_more`).
  @inlinable public var hasMore: Bool { zmq_msg_more(pointer) != 0 }

  /// A copy of the frame's bytes.
  public var bytes: [UInt8] {
    withUnsafeBytes { Array($0) }
  }

  /// The frame decoded as UTF-8 (invalid sequences repaired).
  public var string: String {
    withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the frame's bytes, valid only during the call.
  @inlinable
  public func withUnsafeBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(UnsafeRawBufferPointer(start: zmq_msg_data(pointer), count: zmq_msg_size(pointer)))
  }
}

/// What a message made with `Message(_:released:)` calls when libzmq frees its bytes.
private final class Release: Sendable {
  let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
  }
}

extension Message: CustomStringConvertible {
  /// The size and, for short frames, the bytes in hex.
  public var description: String {
    let shown = withUnsafeBytes {
      $0.prefix(16).map { byte in
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
      }.joined()
    }
    return "Message(\(count) bytes: \(shown)\(count > 16 ? "..." : ""))"
  }
}
