@testable import StatePatch

/// SplitMix64: a small deterministic generator, so every run tests the same documents.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random documents of every kind of value, for round-trip and patch tests.
enum RandomDocuments {
  /// A finite double from random bits (any exponent, either sign).
  static func double(_ generator: inout SeededGenerator) -> Double {
    while true {
      let value = Double(bitPattern: generator.next())
      if value.isFinite { return value }
    }
  }

  /// A string mixing ASCII, escapes, control characters and multi-byte scalars.
  static func string(_ generator: inout SeededGenerator) -> String {
    let pieces = [
      "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1f}", "\u{7f}", "é", "e\u{301}", "€",
      "😀", "~", "\u{2028}",
    ]
    let count = Int(generator.next() % 6)
    return (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
  }

  /// A random document at most `depth` containers deep.
  static func value(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
    let kind = generator.next() % (depth > 0 ? 9 : 7)
    switch kind {
    case 0: return .null
    case 1: return .bool(generator.next() % 2 == 0)
    case 2: return .int(Int64(bitPattern: generator.next()) >> (generator.next() % 64))
    case 3: return .uint(UInt64(Int64.max) + 1 + generator.next() % (UInt64(Int64.max)))
    case 4: return .double(double(&generator))
    case 5: return .double(Double(Int64(bitPattern: generator.next()) >> 40) / 8)
    case 6: return .string(string(&generator))
    case 7:
      let count = Int(generator.next() % 5)
      return .array((0..<count).map { _ in value(&generator, depth: depth - 1) })
    default:
      let count = Int(generator.next() % 5)
      return .object(
        JSONObject(
          (0..<count).map { _ in
            (key: string(&generator), value: value(&generator, depth: depth - 1))
          }))
    }
  }
}
