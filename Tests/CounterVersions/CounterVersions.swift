import Tandem

// Three versions of a counter application's state and actions, as three builds of it would
// have them, for the schema-evolution tests and the rolling-upgrade check's helper.

/// v1 of the counter; v2 adds a defaulted field, an optional one and an action to it; v3
/// changes the counter's type.
public enum CounterV1 {
  public struct State: Codable, Equatable, Sendable {
    public var counter = 0
    public init() {}
  }
  public struct Increase: Action, Codable { public init() {} }
  public struct Decrease: Action, Codable { public init() {} }

  public static let registry = ActionRegistry()
    .registering(Increase.self, tag: "counter.increase")
    .registering(Decrease.self, tag: "counter.decrease")

  public static func reduce(_ state: inout State, _ action: any Action) {
    switch action {
    case is Increase: state.counter += 1
    case is Decrease: state.counter -= 1
    default: break
    }
  }

  public static func store(_ state: State = State()) -> Store<State> {
    Store(reducer: reduce, state: state)
  }
}

public enum CounterV2 {
  public struct State: Codable, Equatable, Sendable {
    public var counter = 0
    /// Added in v2, with a default: how many actions changed the counter.
    public var hits = 0
    /// Added in v2, optional.
    public var note: String?

    public init() {}

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      counter = try container.decode(Int.self, forKey: .counter)
      hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 0
      note = try container.decodeIfPresent(String.self, forKey: .note)
    }
  }
  public typealias Increase = CounterV1.Increase
  public typealias Decrease = CounterV1.Decrease
  /// Added in v2.
  public struct Reset: Action, Codable {
    public var note: String
    public init(note: String) { self.note = note }
  }

  public static let registry = CounterV1.registry.registering(Reset.self, tag: "counter.reset")

  public static func reduce(_ state: inout State, _ action: any Action) {
    switch action {
    case is Increase:
      state.counter += 1
      state.hits += 1
    case is Decrease:
      state.counter -= 1
      state.hits += 1
    case let reset as Reset:
      state.counter = 0
      state.note = reset.note
    default: break
    }
  }

  public static func store(_ state: State = State()) -> Store<State> {
    Store(reducer: reduce, state: state)
  }
}

public enum CounterV3 {
  /// The counter's type changed: incompatible with v1 and v2.
  public struct State: Codable, Equatable, Sendable {
    public var counter = "0"
    public init() {}
  }
  public typealias Increase = CounterV1.Increase

  public static let registry = ActionRegistry().registering(Increase.self, tag: "counter.increase")

  public static func store() -> Store<State> {
    Store(reducer: { (_: inout State, _: any Action) in }, state: State())
  }
}
