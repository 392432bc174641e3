/// Writing and reading the fields of a binary frame (a delta's head, a dispatched action):
/// big-endian integers of a fixed width and texts whose lengths come first.
extension Array where Element == UInt8 {
  /// Appends the low `bytes` bytes of `value`, big-endian.
  package mutating func appendBigEndian(_ value: UInt64, bytes: Int) {
    for index in stride(from: bytes - 1, through: 0, by: -1) {
      append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index)))
    }
  }

  /// Appends `length` as the 2-byte length of a text.
  package mutating func appendLength(_ length: Int) {
    // The readers' limits (and the leader's) keep every text far below 2^16 bytes.
    precondition(length <= Int(UInt16.max), "a text is longer than 65,535 bytes")
    appendBigEndian(UInt64(length), bytes: 2)
  }
}

/// Reads a binary frame's fields in place, front to back; the caller checks that the bytes it
/// asks for remain.
package struct ByteCursor {
  package let bytes: UnsafeBufferPointer<UInt8>
  package private(set) var offset = 0

  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// How many bytes are left to read.
  package var remaining: Int { bytes.count - offset }

  /// The next `count` bytes as a big-endian integer.
  package mutating func integer(bytes count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<offset + count { value = value << 8 | UInt64(bytes[index]) }
    offset += count
    return value
  }

  /// The next `count` bytes.
  package mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
    defer { offset += count }
    return UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
  }
}
