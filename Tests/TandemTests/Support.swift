import Foundation
import Synchronization
import Tandem

struct CounterState: Equatable {
  var counter = 0
  var title = "counter"
}

struct Increment: Action {}
struct Add: Action { var amount: Int }
struct SetTitle: Action { var title: String }

func counterReducer(action: any Action, state: CounterState?) -> CounterState {
  var state = state ?? CounterState()
  switch action {
  case is Increment: state.counter += 1
  case let add as Add: state.counter += add.amount
  case let set as SetTitle: state.title = set.title
  default: break
  }
  return state
}

func counterInPlaceReducer(state: inout CounterState, action: any Action) {
  switch action {
  case is Increment: state.counter += 1
  case let add as Add: state.counter += add.amount
  case let set as SetTitle: state.title = set.title
  default: break
  }
}

/// A subscriber that records every value it receives; safe to read from any thread.
final class Recorder<Value: Sendable>: StoreSubscriber, Sendable {
  private let storage = Mutex<[Value]>([])
  private let onNewState: (@Sendable (Value) -> Void)?

  init(onNewState: (@Sendable (Value) -> Void)? = nil) {
    self.onNewState = onNewState
  }

  var values: [Value] { storage.withLock { $0 } }

  func newState(state: Value) {
    storage.withLock { $0.append(state) }
    onNewState?(state)
  }
}

/// A thread-safe log of strings, for checking the order of events.
final class EventLog: Sendable {
  private let storage = Mutex<[String]>([])
  var events: [String] { storage.withLock { $0 } }
  func append(_ event: String) { storage.withLock { $0.append(event) } }
}

/// Blocks the calling thread until `condition` holds, checking every millisecond, for at most
/// `timeout` (a deadline against a hang only: callers check the condition afterwards). For waits
/// inside a reducer or a state change, where a task cannot suspend.
func waitOnThisThread(timeout: Duration = .seconds(10), until condition: () -> Bool) {
  let deadline = ContinuousClock.now + timeout
  while !condition(), ContinuousClock.now < deadline {
    usleep(1000)
  }
}

/// A store that a reducer or subscriber made before it can look at, set once the store exists.
final class StoreReference: @unchecked Sendable {
  weak var store: Store<CounterState>?
}
