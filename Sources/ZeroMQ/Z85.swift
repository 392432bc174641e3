import CZeroMQ

/// Z85 (ZeroMQ RFC 32): binary data as printable text, 5 characters for every 4 bytes.
///
/// ```swift
/// let text = Z85.encode([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])  // "HelloWorld"
/// let bytes = Z85.decode("HelloWorld")                                      // those 8 bytes
/// ```
public enum Z85 {
  /// The Z85 text of `bytes` (`zmq_z85_encode`); `nil` unless the count is a multiple of 4.
  public static func encode(_ bytes: [UInt8]) -> String? {
    guard bytes.count % 4 == 0 else { return nil }
    var text = [CChar](repeating: 0, count: bytes.count / 4 * 5 + 1)
    guard zmq_z85_encode(&text, bytes, bytes.count) != nil else { return nil }
    return String(decoding: text.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The bytes of Z85 `text` (`zmq_z85_decode`); `nil` unless its length is a multiple of 5
  /// and every character is in the Z85 alphabet.
  public static func decode(_ text: String) -> [UInt8]? {
    let count = text.utf8.count
    guard count % 5 == 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: count / 5 * 4)
    guard zmq_z85_decode(&bytes, text) != nil else { return nil }
    // libzmq 4.3 does not reject every out-of-alphabet character, so check the round trip.
    guard encode(bytes) == text else { return nil }
    return bytes
  }
}
