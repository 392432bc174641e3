import Tandem

/// The state `tandem bench failover` replicates: what the benchmark's one sender had applied,
/// checked in order, and which leader process applied what.
///
/// The sender numbers its ticks 1, 2, 3... and the reducer checks each against the next number
/// it expects, so the state shows at once whether an action was applied twice (``duplicates``)
/// or one was skipped (``skipped``): with neither, and ``applied`` equal to the ticks
/// acknowledged, every acknowledged action is in the state exactly once.
struct FailoverBenchmarkState: Codable, Equatable, Sendable {
  /// A leader process's run of applied ticks: its id and the first tick it applied.
  struct Term: Codable, Equatable, Sendable {
    var leader: String
    var firstTick: Int
  }

  /// Ticks applied.
  var applied = 0
  /// The number of the tick expected next.
  var next = 1
  /// Ticks applied whose number was applied before.
  var duplicates = 0
  /// Numbers passed over: a tick applied above the one expected skips the numbers between.
  var skipped = 0
  /// The terms, in order: one more each time a leader process other than the last applies a
  /// tick (a takeover).
  var terms: [Term] = []
}

/// The sender's `number`-th action; tag `bench.tick`.
struct Tick: Action, Codable, Equatable {
  var number: Int
}

let failoverBenchmarkRegistry = ActionRegistry().registering(Tick.self, tag: "bench.tick")

/// The reducer of the leader process `leader`. It records `leader` in the state where it
/// starts a term: the only input that is not in the action, and harmless here, since a leader
/// recovers its state from the journal's patches and never runs the reducer again on an action
/// it did not apply itself.
func failoverBenchmarkReducer(leader: String) -> InoutReducer<FailoverBenchmarkState> {
  { state, action in
    guard let tick = action as? Tick else { return }
    if tick.number < state.next {
      state.duplicates += 1
    } else {
      state.skipped += tick.number - state.next
      state.next = tick.number + 1
    }
    state.applied += 1
    if state.terms.last?.leader != leader {
      state.terms.append(.init(leader: leader, firstTick: tick.number))
    }
  }
}
