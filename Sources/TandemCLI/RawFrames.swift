/// Frames for `tandem raw`, written on the command line and shown on the terminal.
///
/// A word `x:` followed by hexadecimal digits is that binary frame (`x:` alone is an empty frame,
/// `x:0000000000000001` an 8-byte big-endian 1); any other word is its UTF-8 text.
public enum RawFrames {
  /// The frame a command-line word stands for, or `nil` for malformed hexadecimal.
  public static func frame(_ word: String) -> [UInt8]? {
    guard word.hasPrefix("x:") else { return Array(word.utf8) }
    let digits = Array(word.utf8.dropFirst(2))
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  /// A frame for the terminal: its text when it is printable UTF-8, else `x:` and hexadecimal.
  public static func describe(_ frame: [UInt8]) -> String {
    let printable = frame.allSatisfy { (0x20..<0x7F).contains($0) || $0 >= 0x80 }
    if !frame.isEmpty, printable, let text = String(validating: frame, as: UTF8.self) {
      return text
    }
    let digits = "0123456789abcdef".map { $0 }
    return "x:" + String(frame.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }

  private static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
