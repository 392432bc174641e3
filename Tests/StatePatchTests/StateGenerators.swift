import StatePatch

/// Random states and random mutations of them, all drawn from one seeded generator.
struct StateGenerator {
  var random: StateRandom

  init(seed: UInt64) {
    random = StateRandom(seed: seed)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

  mutating func word() -> String {
    let words = ["a", "b", "tilde~key", "slash/key", "ünï", "", "x y", "émoji🙂", "0", "-"]
    return words[int(0...words.count - 1)] + (chance(50) ? String(int(0...9)) : "")
  }

  mutating func item(id: Int) -> Item {
    Item(
      id: id, title: word(), stars: int(0...5),
      tags: (0..<int(0...3)).map { _ in word() })
  }

  mutating func status() -> Status {
    switch int(0...2) {
    case 0: .idle
    case 1: .busy(since: int(0...100))
    default: .failed(word(), code: int(-2...2))
    }
  }

  mutating func profile() -> Profile {
    Profile(
      name: word(), nickname: chance(50) ? word() : nil,
      scores: Dictionary((0..<int(0...3)).map { _ in (word(), int(0...9)) }) { a, _ in a },
      status: status(), ratio: Double(int(-4...4)) / 4)
  }

  mutating func state() -> TestState {
    TestState(
      title: word(), version: int(0...1000),
      items: (0..<int(0...12)).map { item(id: $0) },
      profiles: Dictionary((0..<int(0...4)).map { _ in (word(), profile()) }) { a, _ in a },
      selected: chance(50) ? int(0...9) : nil,
      statuses: (0..<int(0...3)).map { _ in status() },
      nested: Wrapper(value: ["k": [int(0...3)]], history: chance(50) ? [[:], ["a": []]] : []),
      optionals: (0..<int(0...4)).map { _ in chance(50) ? int(0...3) : nil },
      flags: Set((0..<int(0...3)).map { _ in word() }),
      loose: Loose(count: int(0...3), values: (0..<int(0...3)).map { $0 }, label: nil))
  }

  /// `state` after one to five random edits.
  mutating func mutated(_ state: TestState) -> TestState {
    var state = state
    for _ in 0..<int(1...5) { mutate(&state) }
    return state
  }

  private mutating func mutate(_ state: inout TestState) {
    switch int(0...15) {
    case 0: state.title = word()
    case 1: state.version += 1
    case 2 where !state.items.isEmpty:
      let index = int(0...state.items.count - 1)
      switch int(0...3) {
      case 0: state.items[index].stars += 1
      case 1: state.items[index].title = word()
      case 2: state.items[index].tags.append(word())
      default: state.items[index].tags = []
      }
    case 3: state.items.insert(item(id: 100 + int(0...99)), at: int(0...state.items.count))
    case 4 where !state.items.isEmpty: state.items.remove(at: int(0...state.items.count - 1))
    case 5: state.items.append(item(id: 200 + int(0...99)))
    case 6: state.profiles[word()] = profile()
    case 7 where !state.profiles.isEmpty:
      let key = state.profiles.keys.sorted()[int(0...state.profiles.count - 1)]
      switch int(0...4) {
      case 0: state.profiles[key] = nil
      case 1: state.profiles[key]!.nickname = state.profiles[key]!.nickname == nil ? word() : nil
      case 2: state.profiles[key]!.status = status()
      case 3: state.profiles[key]!.scores[word()] = int(0...9)
      default: state.profiles[key]!.ratio += 0.5
      }
    case 8: state.selected = state.selected == nil ? int(0...9) : nil
    case 9: state.statuses.append(status())
    case 10 where !state.statuses.isEmpty:
      state.statuses[int(0...state.statuses.count - 1)] = status()
    case 11: state.nested.value[word()] = [int(0...3)]
    case 12: state.nested.history.append(state.nested.value)
    case 13: state.optionals.append(chance(50) ? nil : int(0...3))
    case 14 where !state.optionals.isEmpty:
      let index = int(0...state.optionals.count - 1)
      state.optionals[index] = state.optionals[index] == nil ? int(0...3) : nil
    case 15:
      switch int(0...2) {
      case 0: state.flags.insert(word())
      case 1: state.loose.values.append(int(0...9))
      default: state.loose.label = state.loose.label == nil ? word() : nil
      }
    default: state.items.reverse()
    }
  }
}
