import Foundation
import Tandem
import TandemSync
import Testing

/// The typed events of a counter shared by processes: Redux-ReactiveSwift's plus and minus, and
/// an amount, clamped to 0...10.
enum QuantityEvent: Codable, Sendable, Equatable {
  case plus
  case minus
  case add(Int)
}

struct Quantity: Codable, Equatable, Sendable {
  var value = 1
}

enum QuantityStore {
  static let registry = ActionRegistry().registering(events: QuantityEvent.self, prefix: "qty.")

  static let reducers: [EventStore<Quantity, QuantityEvent>.Reducer] = [
    { state, event in
      var state = state
      switch event {
      case .plus: state.value += 1
      case .minus: state.value -= 1
      case .add(let amount): state.value += amount
      }
      return state
    },
    { state, _ in Quantity(value: min(max(state.value, 0), 10)) },
  ]
}

@Suite("Event stores across processes", .timeLimit(.minutes(2)))
struct EventStoreProcessTests {
  /// The leader runs in this process; the follower, in a child process (an exit test), consumes
  /// typed events on its replica, which forwards them by their case tags; both see the result.
  @Test func aFollowerProcessConsumesTypedEventsThatTheLeaderApplies() async throws {
    let store = EventStore<Quantity, QuantityEvent>(
      state: Quantity(), reducers: QuantityStore.reducers)
    let leader = try await Leader(
      store: store.store, registry: QuantityStore.registry,
      configuration: LeaderConfiguration(
        control: "tcp://127.0.0.1:*", updates: "tcp://127.0.0.1:*"))
    store.consume(event: .plus)  // 2, before the follower joins
    let endpoint = leader.controlEndpoint

    await #expect(processExitsWith: .success) { [endpoint = endpoint as String] in
      let follower = try await Follower<Quantity>(
        configuration: FollowerConfiguration(leader: endpoint),
        registry: QuantityStore.registry)
      let replica = EventStore<Quantity, QuantityEvent>(store: follower.store)
      guard replica.value == Quantity(value: 2) else { exit(3) }
      replica.consume(event: .plus)  // forwarded as "qty.plus": 3
      replica.consume(event: .add(20))  // "qty.add": 23, clamped to 10
      _ = try await follower.send(EventAction(QuantityEvent.minus)).applied()  // 9
      guard replica.value == Quantity(value: 9) else { exit(4) }
      await follower.stop()
      exit(0)
    }
    #expect(store.value == Quantity(value: 9))
    await leader.stop()
  }
}
