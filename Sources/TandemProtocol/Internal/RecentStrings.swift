/// The last few strings decoded from bytes (journal columns, protocol frames), handed out again
/// when the same bytes come back, so that reading a million deltas with a few distinct tags and
/// client ids allocates and validates each of them once (strings of up to 15 UTF-8 bytes are
/// stored inline and never cached).
package struct RecentStrings {
  private var strings: [String] = []
  private var next = 0
  private let capacity = 16

  package init() {}

  /// The string of `bytes` (UTF-8; invalid sequences are replaced).
  package mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    cached(bytes) { String(decoding: $0, as: UTF8.self) }!
  }

  /// The string of `bytes`, or nil when they are not valid UTF-8.
  package mutating func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    cached(bytes) { String(validUTF8: $0) }
  }

  private mutating func cached(
    _ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) -> String?
  ) -> String? {
    guard bytes.count > 15 else { return decode(bytes) }
    for index in strings.indices {
      let equal = strings[index].utf8.withContiguousStorageIfAvailable { cached in
        Self.same(cached, bytes)
      }
      if equal == true { return strings[index] }
    }
    guard let string = decode(bytes) else { return nil }
    if strings.count < capacity {
      strings.append(string)
    } else {
      strings[next] = string
      next = (next + 1) % capacity
    }
    return string
  }

  /// Whether `a` and `b` hold the same bytes, compared eight at a time (the generic
  /// `elementsEqual` compares one at a time, and cost recovery a tenth of its time).
  private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool
  {
    guard a.count == b.count else { return false }
    let a = UnsafeRawBufferPointer(a)
    let b = UnsafeRawBufferPointer(b)
    var offset = 0
    while offset + 8 <= a.count {
      guard
        a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < a.count {
      guard a[offset] == b[offset] else { return false }
      offset += 1
    }
    return true
  }
}
