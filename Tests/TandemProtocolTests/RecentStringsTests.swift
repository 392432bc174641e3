import Testing

@testable import TandemProtocol

/// ``RecentStrings`` hands out a cached string only for the very same bytes.
@Suite("Recent strings")
struct RecentStringsTests {
  /// The string of `bytes` from `recent`.
  static func string(_ bytes: [UInt8], _ recent: inout RecentStrings) -> String {
    bytes.withUnsafeBufferPointer { recent.string($0) }
  }

  @Test("bytes that differ anywhere, or in length, never get a cached string")
  func differentBytes() {
    let base = Array("client-0123456789abcdefghij-xyz".utf8)  // 31 bytes: words and a tail
    var recent = RecentStrings()
    #expect(Self.string(base, &recent) == String(decoding: base, as: UTF8.self))
    for position in base.indices {
      var other = base
      other[position] ^= 0x01
      #expect(Self.string(other, &recent) == String(decoding: other, as: UTF8.self))
      #expect(Self.string(base, &recent) == String(decoding: base, as: UTF8.self))
    }
    let longer = base + [0x41]
    #expect(Self.string(longer, &recent) == String(decoding: longer, as: UTF8.self))
    let shorter = Array(base.dropLast())
    #expect(Self.string(shorter, &recent) == String(decoding: shorter, as: UTF8.self))
  }
}
