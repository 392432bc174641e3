import StatePatch

// Typed states shared by the typed-diff tests: nested structs, arrays, String-keyed
// dictionaries, optionals, enums with payloads, nested generics and a type that is not Equatable.

struct Item: Codable, Equatable {
  var id: Int
  var title: String
  var stars: Int
  var tags: [String]
}

enum Status: Codable, Equatable {
  case idle
  case busy(since: Int)
  case failed(String, code: Int)
}

struct Profile: Codable, Equatable {
  var name: String
  var nickname: String?
  var scores: [String: Int]
  var status: Status
  var ratio: Double
}

struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
  var value: Value
  var history: [Value]
}

/// Not `Equatable`: the differ walks it through its containers.
struct Loose: Codable {
  var count: Int
  var values: [Int]
  var label: String?
}

struct TestState: Codable, Equatable {
  var title: String
  var version: Int
  var items: [Item]
  var profiles: [String: Profile]
  var selected: Int?
  var statuses: [Status]
  var nested: Wrapper<[String: [Int]]>
  var optionals: [Int?]
  var flags: Set<String>
  var loose: Loose

  static func == (a: TestState, b: TestState) -> Bool {
    a.title == b.title && a.version == b.version && a.items == b.items
      && a.profiles == b.profiles && a.selected == b.selected && a.statuses == b.statuses
      && a.nested == b.nested && a.optionals == b.optionals && a.flags == b.flags
      && a.loose.count == b.loose.count && a.loose.values == b.loose.values
      && a.loose.label == b.loose.label
  }
}

/// SplitMix64: a small, fast generator whose sequence depends only on its seed.
struct StateRandom: RandomNumberGenerator {
  private var state: UInt64

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
