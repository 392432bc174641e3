import Synchronization
import Tandem
import TandemSync
import Testing

// The README's two quick starts, as written there (apart from `print` being captured and the
// endpoints), so the README stays true: the first runs as is; the second runs with loopback
// endpoints the system chooses instead of fixed ports and a fixed journal path.

private enum ReadmeStore {
  struct AppState: Equatable, Sendable {
    var counter = 0
  }

  struct CounterActionIncrease: Action {}
  struct CounterActionDecrease: Action {}

  static func counterReducer(action: Action, state: AppState?) -> AppState {
    var state = state ?? AppState()
    switch action {
    case _ as CounterActionIncrease: state.counter += 1
    case _ as CounterActionDecrease: state.counter -= 1
    default: break
    }
    return state
  }

  final class CounterView: StoreSubscriber, Sendable {
    let printed = Mutex<[String]>([])
    func newState(state: Int) {
      printed.withLock { $0.append("counter: \(state)") }
    }
  }
}

private enum ReadmeReplication {
  struct Counter: Codable, Equatable, Sendable { var value = 0 }
  struct Increment: Action, Codable {}

  final class View: StoreSubscriber, Sendable {
    let values = Mutex<[Int]>([])
    func newState(state: Int) { values.withLock { $0.append(state) } }
  }
}

@Suite("README examples")
struct ReadmeExampleTests {
  @Test func theStoreQuickStartPrintsWhatTheREADMESays() {
    typealias AppState = ReadmeStore.AppState
    let mainStore = Store<AppState>(reducer: ReadmeStore.counterReducer, state: nil)
    let view = ReadmeStore.CounterView()
    mainStore.subscribe(view) { $0.select(\.counter) }
    mainStore.dispatch(ReadmeStore.CounterActionIncrease())
    #expect(view.printed.withLock { $0 } == ["counter: 0", "counter: 1"])
  }

  @Test func theReplicationQuickStartRuns() async throws {
    typealias Counter = ReadmeReplication.Counter
    typealias Increment = ReadmeReplication.Increment
    let view = ReadmeReplication.View()
    let registry = ActionRegistry().registering(Increment.self, tag: "counter.increment")

    let store = Store<Counter>(
      reducer: { (state: inout Counter, action: any Action) in
        if action is Increment { state.value += 1 }
      }, state: Counter())
    let configuration = LeaderConfiguration(
      control: "tcp://127.0.0.1:*", updates: "tcp://127.0.0.1:*")
    let leader = try await Leader(store: store, registry: registry, configuration: configuration)

    let follower = try await Follower<Counter>(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint), registry: registry)
    follower.store.subscribe(view) { $0.select(\.value) }
    follower.store.dispatch(Increment())
    let sequence = try await follower.send(Increment()).applied()
    #expect(sequence >= 1)
    #expect(follower.store.state.value >= 1)
    await eventually("both increments are shown") { follower.store.state.value == 2 }
    #expect(view.values.withLock { $0 }.first == 0)
    await follower.stop()
    await leader.stop()
  }
}
