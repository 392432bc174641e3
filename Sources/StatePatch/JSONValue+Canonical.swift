extension JSONValue {
  /// The document's canonical JSON: the one byte sequence that every equal document has.
  ///
  /// Canonical JSON is compact UTF-8 with no whitespace and:
  /// - object members in ascending order of the UTF-8 bytes of their keys (each key once);
  /// - integers (`int`, `uint`) in plain decimal, exact, `-` only before negatives;
  /// - doubles as ECMAScript's Number-to-String writes the shortest digits that round-trip
  ///   (`0.1`, `1.5e-7`, `1e+21`, `123.456`), except that a double with no fraction or exponent
  ///   in that form gets `.0` (`5.0`, `100000000000000000000.0`), so it reads back as a double and
  ///   never as the integer `5`; negative zero is written `0.0`; NaN and infinities are not
  ///   JSON, and serializing them is a programmer error that traps;
  /// - strings with `"` and `\` escaped by a backslash, the control characters U+0000...U+001F
  ///   as `\b`, `\f`, `\n`, `\r`, `\t` or else `\u00XX` with lowercase hex, and every other
  ///   character (including `/`, U+007F and all non-ASCII) as its UTF-8 bytes.
  ///
  /// Parsing canonical bytes gives back an equal value, and serializing that value gives back
  /// the same bytes. The writer uses an explicit stack, not recursion.
  public func canonicalBytes() -> [UInt8] {
    var writer = CanonicalWriter()
    writer.bytes.reserveCapacity(64)
    writer.write(self)
    return writer.bytes
  }

  /// The canonical JSON as a `String` (see ``canonicalBytes()``).
  public var canonicalText: String {
    String(decoding: canonicalBytes(), as: UTF8.self)
  }

  /// A hash of the canonical JSON that is the same in every process, run and language:
  /// 64-bit FNV-1a (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over the bytes
  /// of ``canonicalBytes()``.
  ///
  /// Equal documents have equal hashes; use it to notice that two replicas diverged, not as a
  /// defence against an adversary (FNV-1a is not a cryptographic hash).
  public func canonicalHash() -> UInt64 {
    Self.fnv1a(canonicalBytes())
  }

  /// 64-bit FNV-1a of `bytes`.
  public static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }
}
