import CommandLineKit
import Tandem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tandem bench store`: actions per second through a `Tandem.Store`, for six dispatch
/// workloads, each with a ReSwift-style reducer and with an in-place (`inout`) reducer; as a
/// reference, the copy of the 10,000 items that a ReSwift-style reducer makes, in a plain loop
/// without a store; and the cost of subscribing and unsubscribing 10,000 subscribers.
///
/// It prints Tandem's own figures only: a comparison with ReSwift is meaningful only when both
/// are measured side by side on one machine (see the Performance article of the Tandem module).
let storeBenchmark = Command(
  name: "store",
  summary: "Dispatch throughput of the store (workloads a, b, c, d, d0, d', ea, eb, s)",
  usage: "[--runs N] [--millis MS] [--only a,b,d,copy,ea,s,...] [--reducer reswift|inout]\n\n"
    + "  --runs N     timed runs per figure, the median is printed (default 5, at least 1)\n"
    + "  --millis MS  target duration of one run, in milliseconds (default 200)\n"
    + "  --only K,... run only these workloads (copy: the bare copy loop, no store;\n"
    + "               ea, eb: (a) and (b) through an EventStore with typed events;\n"
    + "               s: subscribe then unsubscribe 10,000 subscribers, operations/s)\n"
    + "  --reducer R  run only this reducer style (the copy loop runs with either)",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let runs = try arguments.integer("runs", default: 5, in: 1...1000)
    let milliseconds = try arguments.integer("millis", default: 200, in: 1...60_000)
    let only = try arguments.option("only").map(StoreWorkload.keys)
    let styles = try arguments.option("reducer").map { name in
      guard let style = ReducerStyle.allCases.first(where: { $0.key == name }) else {
        throw UsageError("--reducer takes reswift or inout, not \(name)")
      }
      return [style]
    }
    try arguments.finish()
    StoreBenchmark(
      runs: runs, runSeconds: Double(milliseconds) / 1000, only: only,
      styles: styles ?? ReducerStyle.allCases
    ).run()
  }
)

/// The workloads and how they are measured.
private struct StoreBenchmark {
  var runs: Int
  var runSeconds: Double
  /// The workload keys to run (`a`, `b`, `c`, `d`, `d0`, `copy`, `d'`), or `nil` for all.
  var only: Set<String>?
  /// The reducer styles to run the store workloads with.
  var styles: [ReducerStyle]

  func run() {
    var table = BenchmarkTable(
      title: "store: operations/s (actions, or subscribe/unsubscribe calls for (s)), "
        + "median of \(runs) runs",
      columns: ["workload", "reducer", "ops/s", "µs/op", "per CPU-s"])
    for workload in StoreWorkload.all where only?.contains(workload.key) ?? true {
      for style in workload.styles ?? styles {
        let (rate, cpuRate) = measure(workload, style)
        table.add([
          workload.name, workload.label ?? style.rawValue,
          BenchmarkTable.format(rate), BenchmarkTable.format(1e6 / rate, decimals: 3),
          BenchmarkTable.format(cpuRate),
        ])
      }
    }
    table.print()
  }

  /// The median actions per second of `workload` with `style`, in wall-clock time and in the
  /// dispatching thread's CPU time (which other processes on the machine disturb less).
  private func measure(
    _ workload: StoreWorkload, _ style: ReducerStyle
  ) -> (wall: Double, cpu: Double) {
    let run = workload.make(style)
    // Calibrate the number of operations so that one run takes about `runSeconds`, in whole
    // batches.
    let probe = max(2_000, workload.batch)
    let probeSeconds = ContinuousClock().measure { run(probe) }.seconds
    let wanted = max(probe, Int(runSeconds / max(probeSeconds, 1e-9) * Double(probe)))
    let operations = (wanted + workload.batch - 1) / workload.batch * workload.batch
    let clock = BenchmarkClock(runs: runs)
    var cpuSeconds: [Double] = []
    let wall = clock.rate(operations: operations) {
      let start = threadCPUSeconds()
      run(operations)
      cpuSeconds.append(threadCPUSeconds() - start)
    }
    let cpu = Samples(cpuSeconds.dropFirst(clock.warmups).map { Double(operations) / $0 })
    return (wall.median, cpu.median)
  }
}

/// CPU time the calling thread has used, in seconds.
private func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

private enum ReducerStyle: String, CaseIterable {
  case reSwift = "ReSwift-style"
  case inPlace = "inout"

  /// The name `--reducer` takes.
  var key: String {
    switch self {
    case .reSwift: "reswift"
    case .inPlace: "inout"
    }
  }
}

/// One workload: a store set up with its subscribers, and a function dispatching n actions.
private struct StoreWorkload {
  var name: String
  /// The letter in parentheses at the start of the name.
  var key: String { String(name.dropFirst().prefix { $0 != ")" }) }
  /// What the reducer column says instead of the style, for a workload measured once.
  var label: String?
  /// The styles to measure this workload with, when not the ones asked for.
  var styles: [ReducerStyle]?
  /// The operations of one run are a multiple of this.
  var batch = 1
  /// Builds the store and returns a function that performs that many operations on it.
  var make: (ReducerStyle) -> (Int) -> Void

  /// The workload keys in `list` (comma-separated, as `--only` takes them).
  static func keys(_ list: String) throws(UsageError) -> Set<String> {
    let known = all.map(\.key)
    let keys = Set(list.split(separator: ",").map(String.init))
    if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
      throw UsageError(
        "unknown workload '\(unknown)' (the workloads: \(known.joined(separator: ", ")))")
    }
    guard !keys.isEmpty else { throw UsageError("--only names no workload") }
    return keys
  }

  static var all: [StoreWorkload] {
    [
      counter("(a) counter, 0 subscribers", subscribers: 0),
      counter("(b) counter, 10 subscribers", subscribers: 10),
      counter("(c) counter, 100 subscribers", subscribers: 100),
      items("(d) 10k items, 10 select item", subscribers: 10) {
        store, subscriber, index in
        store.subscribe(subscriber) { $0.select { $0.items[index * 1000] } }
      },
      items("(d0) 10k items, 0 subscribers", subscribers: 0) {
        (_, _: CountingSubscriber<Item>, _) in
      },
      bareCopy("(copy) 10k items, bare copy loop"),
      items("(d') 10k items, 10 select items", subscribers: 10) {
        store, subscriber, _ in
        store.subscribe(subscriber) { $0.select(\.items) }
      },
      eventCounter("(ea) event store counter, 0 subscribers", subscribers: 0),
      eventCounter("(eb) event store counter, 10 subscribers", subscribers: 10),
      subscribing("(s) subscribe+unsubscribe 10k subscribers", subscribers: 10_000),
    ]
  }

  static func counter(_ name: String, subscribers: Int) -> StoreWorkload {
    StoreWorkload(name: name) { style in
      let store: Store<CounterState>
      switch style {
      case .reSwift: store = Store(reducer: counterReducer, state: nil)
      case .inPlace: store = Store(reducer: counterInPlaceReducer, state: CounterState())
      }
      let counters = (0..<subscribers).map { _ in CountingSubscriber<Int>() }
      for subscriber in counters {
        store.subscribe(subscriber) { $0.select { $0.counter } }
      }
      return { count in
        withExtendedLifetime(counters) {
          for _ in 0..<count {
            store.dispatch(IncrementCounter())
          }
        }
      }
    }
  }

  static func items<Selected>(
    _ name: String, subscribers: Int,
    subscribe: @escaping (Store<ItemsState>, CountingSubscriber<Selected>, Int) -> Void
  ) -> StoreWorkload {
    StoreWorkload(name: name) { style in
      let store: Store<ItemsState>
      switch style {
      case .reSwift: store = Store(reducer: itemsReducer, state: ItemsState())
      case .inPlace: store = Store(reducer: itemsInPlaceReducer, state: ItemsState())
      }
      let counters = (0..<subscribers).map { _ in CountingSubscriber<Selected>() }
      for (index, subscriber) in counters.enumerated() {
        subscribe(store, subscriber, index)
      }
      var next = 0
      return { count in
        withExtendedLifetime(counters) {
          for _ in 0..<count {
            store.dispatch(IncrementItem(index: next))
            next = next == ItemsState.count - 1 ? 0 : next + 1
          }
        }
      }
    }
  }
}

extension StoreWorkload {
  /// The copy of the state that a ReSwift-style reducer makes for each action of (d) and (d0),
  /// in a plain loop without a store: the floor those workloads have with such a reducer.
  static func bareCopy(_ name: String) -> StoreWorkload {
    StoreWorkload(name: name, label: "no store", styles: [.reSwift]) { _ in
      let holder = StateHolder()
      var next = 0
      return { count in
        for _ in 0..<count {
          // As a returning reducer: copy the state it is lent (the items are now shared), change
          // one item (so the 10,000 items are copied), and the copy replaces the old state (whose
          // items are freed). The old state stays in the holder until then, as in a store.
          var state = holder.state
          state.items[next].value += 1
          holder.state = state
          next = next == ItemsState.count - 1 ? 0 : next + 1
        }
      }
    }
  }
}

extension StoreWorkload {
  /// Subscribing `subscribers` objects to a counter store (each selects the counter and gets the
  /// current state), then unsubscribing them in the same order, over and over; an operation is
  /// one subscribe or one unsubscribe call. Its cost per operation must not grow with the number
  /// of subscribers.
  static func subscribing(_ name: String, subscribers: Int) -> StoreWorkload {
    StoreWorkload(
      name: name, label: "inout", styles: [.inPlace], batch: 2 * subscribers
    ) { _ in
      let store = Store<CounterState>(reducer: counterInPlaceReducer, state: CounterState())
      let counters = (0..<subscribers).map { _ in CountingSubscriber<Int>() }
      return { count in
        for _ in 0..<count / (2 * subscribers) {
          for subscriber in counters {
            store.subscribe(subscriber) { $0.select { $0.counter } }
          }
          for subscriber in counters {
            store.unsubscribe(subscriber)
          }
        }
      }
    }
  }
}

extension StoreWorkload {
  /// Workloads (a) and (b) through an `EventStore` whose two reducers (the counter and a clamp
  /// that never binds) take a typed event: returning reducers for the ReSwift-style row, in-place
  /// ones for the `inout` row.
  static func eventCounter(_ name: String, subscribers: Int) -> StoreWorkload {
    StoreWorkload(name: name) { style in
      let store: EventStore<CounterState, CounterEvent>
      switch style {
      case .reSwift:
        store = EventStore(state: CounterState(), reducers: [counterEventReducer, clampReducer])
      case .inPlace:
        store = EventStore(
          state: CounterState(), inPlaceReducers: [counterEventInPlaceReducer, clampInPlaceReducer])
      }
      let counters = (0..<subscribers).map { _ in CountingSubscriber<Int>() }
      for subscriber in counters {
        store.store.subscribe(subscriber) { $0.select { $0.counter } }
      }
      return { count in
        withExtendedLifetime(counters) {
          for _ in 0..<count {
            store.consume(event: .increment)
          }
        }
      }
    }
  }
}

private enum CounterEvent: Sendable {
  case increment
  case decrement
}

private let counterEventReducer: EventStore<CounterState, CounterEvent>.Reducer = {
  state, event in
  var state = state
  switch event {
  case .increment: state.counter += 1
  case .decrement: state.counter -= 1
  }
  return state
}

private let clampReducer: EventStore<CounterState, CounterEvent>.Reducer = { state, _ in
  guard state.counter < 0 else { return state }
  var state = state
  state.counter = 0
  return state
}

private let counterEventInPlaceReducer: EventStore<CounterState, CounterEvent>.InoutReducer = {
  state, event in
  switch event {
  case .increment: state.counter += 1
  case .decrement: state.counter -= 1
  }
}

private let clampInPlaceReducer: EventStore<CounterState, CounterEvent>.InoutReducer = {
  state, _ in
  if state.counter < 0 { state.counter = 0 }
}

/// Holds the state of the bare copy loop, as a store holds its state.
private final class StateHolder {
  var state = ItemsState()
}

private struct CounterState: Equatable {
  var counter = 0
  var untouched = 0
  var title = "Tandem store benchmark"
}

private struct IncrementCounter: Action {}

private func counterReducer(action: any Action, state: CounterState?) -> CounterState {
  var state = state ?? CounterState()
  if action is IncrementCounter {
    state.counter += 1
  }
  return state
}

private func counterInPlaceReducer(state: inout CounterState, action: any Action) {
  if action is IncrementCounter {
    state.counter += 1
  }
}

private struct Item: Equatable {
  var id: Int
  var value: Int
  var score: Double
  var flag: Bool
}

private struct ItemsState: Equatable {
  static let count = 10_000
  var items = (0..<ItemsState.count).map {
    Item(id: $0, value: 0, score: Double($0) / 2, flag: $0 % 2 == 0)
  }
}

private struct IncrementItem: Action {
  var index: Int
}

private func itemsReducer(action: any Action, state: ItemsState?) -> ItemsState {
  var state = state ?? ItemsState()
  if let action = action as? IncrementItem {
    state.items[action.index].value += 1
  }
  return state
}

private func itemsInPlaceReducer(state: inout ItemsState, action: any Action) {
  if let action = action as? IncrementItem {
    state.items[action.index].value += 1
  }
}

/// A subscriber that counts its notifications.
private final class CountingSubscriber<Value>: StoreSubscriber {
  var count = 0
  func newState(state: Value) {
    count &+= 1
  }
}
