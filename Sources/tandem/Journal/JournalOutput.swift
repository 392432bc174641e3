import TandemSync

/// Text helpers shared by the journal commands: sizes, hex, and minimal JSON writing.
enum JournalOutput {
  /// `bytes` in B, KiB, MiB or GiB with one decimal.
  static func size(_ bytes: Int) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    if unit == 0 { return "\(bytes) B" }
    return "\((value * 10).rounded() / 10) \(units[unit])"
  }

  /// `duration` in seconds, rounded to `decimals` decimals.
  static func seconds(_ duration: Duration, decimals: Int = 1) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) + Double(attoseconds) * 1e-18
    let scale = (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
    return "\((value * scale).rounded() / scale)"
  }

  /// `value` as 16 hexadecimal digits.
  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// `text` as a JSON string literal.
  static func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let digits = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// A JSON object from members whose values are already JSON texts, in the given order.
  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { "\(json($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  /// `value` as JSON, or `null`.
  static func number<T: BinaryInteger>(_ value: T?) -> String {
    value.map { "\($0)" } ?? "null"
  }
}
