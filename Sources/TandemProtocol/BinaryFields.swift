/// Writing and reading the fields of a binary frame (a delta's head, a dispatched action):
/// big-endian integers of a fixed width and texts whose lengths come first.
extension Array where Element == UInt8 {
  /// Appends the low `bytes` (1 to 8) bytes of `value`, big-endian: one copy of the bytes
  /// of a shifted word rather than an append per byte (every delta and dispatched action
  /// writes a handful of these).
  package mutating func appendBigEndian(_ value: UInt64, bytes: Int) {
    precondition((1...8).contains(bytes), "a big-endian field has 1 to 8 bytes")
    let word = (value << UInt64(64 - 8 * bytes)).bigEndian
    Swift.withUnsafeBytes(of: word) {
      append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<bytes]))
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

  /// The next `count` bytes as a big-endian integer; the 8- and 2-byte fields are read with one
  /// load each.
  package mutating func integer(bytes count: Int) -> UInt64 {
    precondition(count >= 0 && count <= remaining, "a field read past the end of its frame")
    defer { offset += count }
    guard let base = bytes.baseAddress else { return 0 }
    let start = UnsafeRawPointer(base + offset)
    switch count {
    case 8: return UInt64(bigEndian: start.loadUnaligned(as: UInt64.self))
    case 2: return UInt64(UInt16(bigEndian: start.loadUnaligned(as: UInt16.self)))
    default:
      var value: UInt64 = 0
      for index in 0..<count {
        value = value << 8 | UInt64(start.load(fromByteOffset: index, as: UInt8.self))
      }
      return value
    }
  }

  /// The next `count` bytes.
  package mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
    defer { offset += count }
    return UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
  }
}
