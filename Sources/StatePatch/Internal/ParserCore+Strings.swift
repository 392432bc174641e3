extension ParserCore {
  /// Reads a string starting at its opening quote; validates UTF-8 and escapes.
  mutating func parseString() throws(JSONParseError) -> String {
    offset += 1
    let start = offset
    // Fast path: plain ASCII up to the closing quote.
    while offset < input.count {
      let byte = input[offset]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: input[start..<offset]), as: UTF8.self)
        offset += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      offset += 1
    }
    scratch.removeAll(keepingCapacity: true)
    var runStart = start
    while true {
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      let byte = input[offset]
      if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        offset += 1
        continue
      }
      if byte >= 0x80 {
        offset += try validateUTF8Sequence()
        continue
      }
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<offset]))
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return String(decoding: scratch, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape()
        runStart = offset
      default:
        throw failure(.controlCharacter)
      }
    }
  }

  /// Checks the multi-byte UTF-8 sequence at `offset` (Unicode's table of well-formed byte
  /// sequences) and returns its length.
  func validateUTF8Sequence() throws(JSONParseError) -> Int {
    let lead = input[offset]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: throw failure(.invalidUTF8)
    }
    guard offset + length <= input.count else {
      // A truncated sequence: invalid if what is there is already wrong, else the input ended.
      for index in 1..<(input.count - offset) {
        let byte = input[offset + index]
        if index == 1 ? (byte < low || byte > high) : (byte < 0x80 || byte > 0xBF) {
          throw failure(.invalidUTF8)
        }
      }
      throw failure(.unexpectedEnd, at: input.count)
    }
    let second = input[offset + 1]
    guard second >= low, second <= high else { throw failure(.invalidUTF8) }
    for index in 2..<length where input[offset + index] & 0xC0 != 0x80 {
      throw failure(.invalidUTF8)
    }
    return length
  }

  /// Reads the escape at `offset` (a backslash) and appends what it stands for to `scratch`.
  mutating func parseEscape() throws(JSONParseError) {
    let escapeOffset = offset
    guard offset + 1 < input.count else { throw failure(.unexpectedEnd) }
    let letter = input[offset + 1]
    offset += 2
    switch letter {
    case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = UInt32(try readHex4())
      if scalar >= 0xDC00 && scalar <= 0xDFFF {
        throw failure(.loneSurrogate, at: escapeOffset)
      }
      if scalar >= 0xD800 && scalar <= 0xDBFF {
        guard offset + 1 < input.count, input[offset] == UInt8(ascii: "\\"),
          input[offset + 1] == UInt8(ascii: "u")
        else { throw failure(.loneSurrogate, at: escapeOffset) }
        offset += 2
        let low = UInt32(try readHex4())
        guard low >= 0xDC00 && low <= 0xDFFF else {
          throw failure(.loneSurrogate, at: escapeOffset)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      appendUTF8(scalar)
    default:
      throw failure(.invalidEscape, at: escapeOffset)
    }
  }

  /// Reads four hexadecimal digits at `offset`.
  mutating func readHex4() throws(JSONParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      let byte = input[offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(.invalidEscape)
      }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }

  /// Appends the UTF-8 encoding of a Unicode scalar value to `scratch`.
  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
