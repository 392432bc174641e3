extension CanonicalWriter {
  /// A finite double in its one canonical spelling (see ``JSONValue/canonicalBytes()``):
  /// ECMAScript's Number-to-String of the shortest round-trip digits, with `.0` added to values
  /// written without a fraction or exponent, and negative zero written as `0.0`.
  mutating func writeDouble(_ value: Double) {
    precondition(
      value.isFinite, "JSONValue.double(\(value)) is not JSON: NaN and infinities have no JSON form"
    )
    if value == 0 {
      append("0.0")
      return
    }
    // Integral values below 2^53 are exact integers: digits and ".0", without formatting.
    if value.magnitude < 0x1p53, Double(Int64(value)) == value {
      writeInteger(UInt64(value.magnitude), negative: value < 0)
      append(".0")
      return
    }
    var exponent = Self.shortestDigits(value.magnitude, into: &digits)
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    let count = digits.count
    let zero = UInt8(ascii: "0")
    if count <= exponent && exponent <= 21 {
      bytes += digits
      bytes += repeatElement(zero, count: exponent - count)
      append(".0")
    } else if 0 < exponent && exponent <= 21 {
      bytes += digits[..<exponent]
      bytes.append(UInt8(ascii: "."))
      bytes += digits[exponent...]
    } else if -6 < exponent && exponent <= 0 {
      append("0.")
      bytes += repeatElement(zero, count: -exponent)
      bytes += digits
    } else {
      bytes.append(digits[0])
      if count > 1 {
        bytes.append(UInt8(ascii: "."))
        bytes += digits[1...]
      }
      bytes.append(UInt8(ascii: "e"))
      exponent -= 1
      bytes.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      writeInteger(UInt64(exponent.magnitude), negative: false)
    }
  }

  /// Puts in `digits` the shortest decimal digits that round-trip to `value` (positive,
  /// finite), without leading or trailing zeros; returns `exponent` such that
  /// `value = 0.digits × 10^exponent`.
  ///
  /// Swift's `description` of a `Double` prints exactly those digits (its shortest round-trip
  /// algorithm); only its layout is ours to redo.
  static func shortestDigits(_ value: Double, into digits: inout [UInt8]) -> Int {
    digits.removeAll(keepingCapacity: true)
    var integerDigits = 0
    var seenPoint = false
    var exponent = 0
    var exponentNegative = false
    var inExponent = false
    for byte in value.description.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if inExponent {
          exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
        } else {
          digits.append(byte)
          if !seenPoint { integerDigits += 1 }
        }
      case UInt8(ascii: "."): seenPoint = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
      case UInt8(ascii: "-"): exponentNegative = inExponent
      default: break
      }
    }
    var pointExponent = integerDigits + (exponentNegative ? -exponent : exponent)
    let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
    digits.removeFirst(leadingZeros)
    pointExponent -= leadingZeros
    while digits.last == UInt8(ascii: "0") { digits.removeLast() }
    return pointExponent
  }
}
