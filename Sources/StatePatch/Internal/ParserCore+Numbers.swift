extension ParserCore {
  /// Reads a number by RFC 8259's grammar: an integer becomes `int`/`uint` (or an error when it
  /// does not fit in 64 bits); anything with a fraction or exponent becomes a finite `double`.
  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    var negative = false
    if input[offset] == UInt8(ascii: "-") {
      negative = true
      offset += 1
    }
    guard offset < input.count else { throw failure(.unexpectedEnd) }
    guard isDigit(input[offset]) else { throw failure(.invalidNumber) }

    // All the digits as one exact integer while they fit, for integers and the fast double path.
    var significand: UInt64 = 0
    var significandOverflow = false
    var decimalExponent = 0

    func accumulate(_ byte: UInt8) {
      let (times, overflow1) = significand.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
      if overflow1 || overflow2 { significandOverflow = true } else { significand = sum }
    }

    if input[offset] == UInt8(ascii: "0") {
      offset += 1
      if offset < input.count, isDigit(input[offset]) { throw failure(.leadingZero, at: start) }
    } else {
      while offset < input.count, isDigit(input[offset]) {
        if !significandOverflow { accumulate(input[offset]) }
        offset += 1
      }
    }
    var isInteger = true
    if offset < input.count, input[offset] == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      guard isDigit(input[offset]) else { throw failure(.invalidNumber) }
      while offset < input.count, isDigit(input[offset]) {
        if !significandOverflow { accumulate(input[offset]) }
        decimalExponent -= 1
        offset += 1
      }
    }
    let exponentMarker = offset < input.count ? input[offset] : 0
    if exponentMarker == UInt8(ascii: "e") || exponentMarker == UInt8(ascii: "E") {
      isInteger = false
      offset += 1
      var exponentNegative = false
      let sign = offset < input.count ? input[offset] : 0
      if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        exponentNegative = sign == UInt8(ascii: "-")
        offset += 1
      }
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      guard isDigit(input[offset]) else { throw failure(.invalidNumber) }
      var exponent = 0
      while offset < input.count, isDigit(input[offset]) {
        if exponent < 1_000_000 {
          exponent = exponent * 10 + Int(input[offset] &- UInt8(ascii: "0"))
        }
        offset += 1
      }
      decimalExponent += exponentNegative ? -exponent : exponent
    }

    if isInteger {
      guard !significandOverflow else { throw failure(.numberOutOfRange, at: start) }
      if negative {
        guard significand <= UInt64(Int64.max) + 1 else {
          throw failure(.numberOutOfRange, at: start)
        }
        return .int(significand == UInt64(Int64.max) + 1 ? Int64.min : -Int64(significand))
      }
      return significand <= UInt64(Int64.max) ? .int(Int64(significand)) : .uint(significand)
    }

    // Exact when the significand and the power of ten are both exact doubles (Clinger).
    if !significandOverflow && significand <= 1 << 53 && decimalExponent >= -22
      && decimalExponent <= 22
    {
      var value = Double(significand)
      if decimalExponent < 0 {
        value /= Self.powersOfTen[-decimalExponent]
      } else {
        value *= Self.powersOfTen[decimalExponent]
      }
      return .double(negative ? -value : value)
    }
    if significand == 0 && !significandOverflow { return .double(negative ? -0.0 : 0.0) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<offset]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw failure(.numberOutOfRange, at: start)
    }
    return .double(value)
  }

  func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }
}
