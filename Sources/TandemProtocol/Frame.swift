/// One part of a ZeroMQ multipart message, as bytes.
public typealias Frame = [UInt8]

extension Array where Element == UInt8 {
  /// The 8-byte big-endian frame of `value`, as the protocol sends epochs, sequences and numbers.
  package init(bigEndian value: UInt64) {
    self = Swift.withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  /// The UTF-8 bytes of `text`.
  package init(utf8 text: String) {
    self = Array(text.utf8)
  }
}

extension String {
  /// The text `bytes` hold, or nil when they are not valid UTF-8: what
  /// `String(validating: bytes, as: UTF8.self)` returns, without its generic path, which looks
  /// up type metadata at run time on every call (twice per forwarded action).
  package init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    // Decoding repairs invalid input (with U+FFFD), and a repair never equals the input.
    let decoded = String(decoding: bytes, as: UTF8.self)
    guard decoded.utf8.elementsEqual(bytes) else { return nil }
    self = decoded
  }
}

/// Reads a multipart message frame by frame, failing with a ``ProtocolViolation`` that names
/// the command and the frame when a frame is missing or malformed.
package struct FrameReader {
  private let frames: [Frame]
  private var index: Int
  package let command: String

  /// A reader over `frames`, positioned after the command frame at `start`.
  package init(_ frames: [Frame], command: String, start: Int = 1) {
    self.frames = frames
    self.command = command
    self.index = start
  }

  /// The next frame as an 8-byte big-endian integer.
  package mutating func integer(_ field: String) throws(ProtocolViolation) -> UInt64 {
    let frame = try next(field)
    guard frame.count == 8 else {
      throw ProtocolViolation("\(command): \(field) must be 8 bytes, got \(frame.count)")
    }
    return frame.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The next frame as a sequence or an action number: an 8-byte big-endian integer below
  /// `UInt64.max`, so that every one has a next.
  package mutating func ordinal(_ field: String) throws(ProtocolViolation) -> UInt64 {
    let value = try integer(field)
    guard value < .max else {
      throw ProtocolViolation("\(command): \(field) must be below 2^64 - 1, got \(value)")
    }
    return value
  }

  /// The most bytes of a text frame unless the frame's table says otherwise (a tag, for one).
  package static let textBytes = 256

  /// The next frame as UTF-8 text of at most `limit` bytes.
  package mutating func text(_ field: String, limit: Int = textBytes) throws(ProtocolViolation)
    -> String
  {
    try text(field, limit: limit) { String(validUTF8: $0) }
  }

  /// How many bytes of UTF-8 a follower's client id has: 1 to 256 (the empty client id is the
  /// leader's own origin, ``Origin/leader``).
  package static let clientIDBytes = 1...256

  /// The next frame as a follower's client id (see ``clientIDBytes``).
  package mutating func clientID(_ field: String = "client") throws(ProtocolViolation) -> String {
    let client = try text(field, limit: Self.clientIDBytes.upperBound)
    guard !client.isEmpty else { throw ProtocolViolation("\(command): \(field) is empty") }
    return client
  }

  /// The next frame as UTF-8 text of at most `limit` bytes, the same string as before when
  /// `recent` has seen the same bytes (the client ids and tags of a delta's actions repeat).
  package mutating func text(
    _ field: String, limit: Int = textBytes, reusing recent: inout RecentStrings
  ) throws(ProtocolViolation) -> String {
    try text(field, limit: limit) { recent.validString($0) }
  }

  private mutating func text(
    _ field: String, limit: Int, decode: (UnsafeBufferPointer<UInt8>) -> String?
  ) throws(ProtocolViolation) -> String {
    let frame = try next(field)
    guard frame.count <= limit else {
      throw ProtocolViolation("\(command): \(field) is longer than \(limit) bytes")
    }
    guard let text = frame.withUnsafeBufferPointer(decode) else {
      throw ProtocolViolation("\(command): \(field) is not valid UTF-8")
    }
    return text
  }

  /// The next frame's bytes.
  package mutating func bytes(_ field: String) throws(ProtocolViolation) -> Frame {
    try next(field)
  }

  /// Whether frames remain.
  package var hasMore: Bool { index < frames.count }

  /// How many frames remain.
  package var remaining: Int { frames.count - index }

  /// Fails when frames remain that the command does not define.
  package func finish() throws(ProtocolViolation) {
    guard index == frames.count else {
      throw ProtocolViolation("\(command): \(frames.count - index) unexpected extra frame(s)")
    }
  }

  private mutating func next(_ field: String) throws(ProtocolViolation) -> Frame {
    guard index < frames.count else {
      throw ProtocolViolation("\(command): missing \(field) frame")
    }
    defer { index += 1 }
    return frames[index]
  }
}
