import Tandem
import TandemProtocol
import TandemSync

/// The state the replication tests share: a counter, and per client the numbers it sent, in
/// the order the leader applied them.
struct TestState: Codable, Equatable, Sendable {
  var counter = 0
  var log: [String: [Int]] = [:]
  var title = "tandem"
}

struct Increment: Action, Codable, Equatable {
  var by = 1
}

struct Record: Action, Codable, Equatable {
  var client: String
  var value: Int
}

struct SetTitle: Action, Codable, Equatable {
  var title: String
}

/// An increment carrying padding that the state does not keep: large requests, small deltas.
struct PaddedIncrement: Action, Codable, Equatable {
  var padding: String
}

/// An action no middleware lets through.
struct Swallowed: Action, Codable, Equatable {}

/// An action the application's validation refuses.
struct Forbidden: Action, Codable, Equatable {}

let testRegistry = ActionRegistry()
  .registering(Increment.self, tag: "test.increment")
  .registering(Record.self, tag: "test.record")
  .registering(SetTitle.self, tag: "test.title")
  .registering(Swallowed.self, tag: "test.swallowed")
  .registering(Forbidden.self, tag: "test.forbidden")
  .registering(PaddedIncrement.self, tag: "test.padded-increment")

func testReducer(_ state: inout TestState, _ action: any Action) {
  switch action {
  case let increment as Increment:
    state.counter += increment.by
  case let record as Record:
    state.log[record.client, default: []].append(record.value)
  case let title as SetTitle:
    state.title = title.title
  case is PaddedIncrement:
    state.counter += 1
  default:
    break
  }
}

let swallowing: Middleware<TestState> = { _, _ in
  { next in
    { action in
      if action is Swallowed { return }
      next(action)
    }
  }
}

/// A leader of ``TestState`` on loopback tcp with ephemeral ports.
func makeLeader(
  state: TestState = TestState(), configure: (inout LeaderConfiguration) -> Void = { _ in }
) async throws -> Leader<TestState> {
  let store = Store<TestState>(reducer: testReducer, state: state, middleware: [swallowing])
  var configuration = LeaderConfiguration()
  configuration.heartbeatInterval = .milliseconds(100)
  configuration.validate = { action, _ in
    action is Forbidden ? Rejection(code: .refused, message: "forbidden here") : nil
  }
  configure(&configuration)
  return try await Leader(store: store, registry: testRegistry, configuration: configuration)
}

/// A follower of `leader` with short timeouts.
func makeFollower(
  _ leader: Leader<TestState>, registry: ActionRegistry = testRegistry,
  configure: (inout FollowerConfiguration) -> Void = { _ in }
) async throws -> Follower<TestState> {
  var configuration = FollowerConfiguration(leader: leader.controlEndpoint)
  configuration.silenceLimit = .milliseconds(1500)
  configuration.reconnectDelay = .milliseconds(20)
  configuration.joinTimeout = .seconds(10)
  configure(&configuration)
  return try await Follower(configuration: configuration, registry: registry)
}
