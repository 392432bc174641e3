import Tandem
import TandemSync

/// Three versions of a counter application, as three builds of it would have them: v2 adds a
/// defaulted field, an optional one and an action to v1; v3 changes the counter's type.
enum CounterV1 {
  struct State: Codable, Equatable, Sendable { var counter = 0 }
  struct Increase: Action, Codable {}
  struct Decrease: Action, Codable {}

  static let registry = ActionRegistry()
    .registering(Increase.self, tag: "counter.increase")
    .registering(Decrease.self, tag: "counter.decrease")

  static func reduce(_ state: inout State, _ action: any Action) {
    switch action {
    case is Increase: state.counter += 1
    case is Decrease: state.counter -= 1
    default: break
    }
  }

  static func store(_ state: State = State()) -> Store<State> {
    Store(reducer: reduce, state: state)
  }
}

enum CounterV2 {
  struct State: Codable, Equatable, Sendable {
    var counter = 0
    /// Added in v2, with a default: how many actions changed the counter.
    var hits = 0
    /// Added in v2, optional.
    var note: String?

    init() {}

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      counter = try container.decode(Int.self, forKey: .counter)
      hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 0
      note = try container.decodeIfPresent(String.self, forKey: .note)
    }
  }
  typealias Increase = CounterV1.Increase
  typealias Decrease = CounterV1.Decrease
  /// Added in v2.
  struct Reset: Action, Codable { var note: String }

  static let registry = CounterV1.registry.registering(Reset.self, tag: "counter.reset")

  static func reduce(_ state: inout State, _ action: any Action) {
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

  static func store(_ state: State = State()) -> Store<State> {
    Store(reducer: reduce, state: state)
  }
}

enum CounterV3 {
  /// The counter's type changed: incompatible with v1 and v2.
  struct State: Codable, Equatable, Sendable { var counter = "0" }
  typealias Increase = CounterV1.Increase

  static let registry = ActionRegistry().registering(Increase.self, tag: "counter.increase")

  static func store() -> Store<State> {
    Store(reducer: { (_: inout State, _: any Action) in }, state: State())
  }
}

/// A leader of `store`'s version for the schema tests (journal and endpoints optional).
func versionedLeader<State: Codable & Sendable>(
  _ store: Store<State>, registry: ActionRegistry, journal: String? = nil,
  control: String = "tcp://127.0.0.1:*", updates: String = "tcp://127.0.0.1:*"
) async throws -> Leader<State> {
  var configuration = LeaderConfiguration(control: control, updates: updates)
  configuration.heartbeatInterval = .milliseconds(100)
  configuration.journalPath = journal
  return try await Leader(store: store, registry: registry, configuration: configuration)
}

/// A follower of `State`'s version.
func versionedFollower<State: Codable & Sendable>(
  _: State.Type, of control: String, registry: ActionRegistry
) async throws -> Follower<State> {
  var configuration = FollowerConfiguration(leader: control)
  configuration.silenceLimit = .milliseconds(1500)
  configuration.reconnectDelay = .milliseconds(20)
  configuration.joinTimeout = .seconds(10)
  return try await Follower(configuration: configuration, registry: registry)
}
