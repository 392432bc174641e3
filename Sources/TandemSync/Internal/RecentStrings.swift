#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last few strings decoded from bytes (journal columns, protocol frames), handed out again
/// when the same bytes come back, so that reading a million deltas with a few distinct tags and
/// client ids allocates and validates each of them once (strings of up to 15 UTF-8 bytes are
/// stored inline and never cached).
struct RecentStrings {
  private var strings: [String] = []
  private var next = 0
  private let capacity = 16

  /// The string of `bytes` (UTF-8; invalid sequences are replaced).
  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    cached(bytes) { String(decoding: $0, as: UTF8.self) }!
  }

  /// The string of `bytes`, or nil when they are not valid UTF-8.
  mutating func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    cached(bytes) { String(validUTF8: $0) }
  }

  private mutating func cached(
    _ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) -> String?
  ) -> String? {
    guard bytes.count > 15, let base = bytes.baseAddress else { return decode(bytes) }
    for index in strings.indices {
      let equal = strings[index].utf8.withContiguousStorageIfAvailable { cached in
        cached.count == bytes.count && memcmp(cached.baseAddress!, base, bytes.count) == 0
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
}
