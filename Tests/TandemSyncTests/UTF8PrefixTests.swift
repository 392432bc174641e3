import Testing

@testable import TandemSync

@Suite("A string's prefix within a byte bound")
struct UTF8PrefixTests {
  @Test func aStringThatFitsIsKeptWhole() {
    #expect("héllo".prefix(maximumUTF8Bytes: 6) == "héllo")
    #expect("".prefix(maximumUTF8Bytes: 0) == "")
  }

  @Test func theCutFallsBeforeTheCharacterTheBoundSplits() {
    // "é" as e + U+0301 (3 bytes in all) across the bound at 2: the whole character goes.
    #expect("ae\u{301}b".prefix(maximumUTF8Bytes: 2) == "a")
    #expect("ae\u{301}b".prefix(maximumUTF8Bytes: 4) == "ae\u{301}")
    // A 4-byte emoji across the bound.
    #expect("ab😀".prefix(maximumUTF8Bytes: 5) == "ab")
    #expect("😀".prefix(maximumUTF8Bytes: 0) == "")
  }

  @Test func aShortenedStringEndsWithAnEllipsisWithinTheBound() {
    #expect("héllo".shortened(toUTF8Bytes: 6) == "héllo")
    // 12 bytes into 7: "…" takes 3, and the 4 bytes left end inside "é", which goes whole.
    let shortened = "abcé😀xyz".shortened(toUTF8Bytes: 7)
    #expect(shortened == "abc…")
    #expect(shortened.utf8.count <= 7)
  }
}
