import Tandem

/// The state the counter example shares between its processes: ReSwift's CounterExample state,
/// plus how many actions each follower contributed and a free-text note.
///
/// ```json
/// {"actionsByClient":{"9c1e...":3},"counter":3,"note":""}
/// ```
public struct CounterState: Codable, Equatable, Sendable {
  /// The shared count.
  public var counter = 0
  /// How many actions each client id has had applied: what lets a follower check that it
  /// reads its own writes.
  public var actionsByClient: [String: Int] = [:]
  /// The last note set with ``SetNote``.
  public var note = ""

  /// A state with the given count, tallies and note (all empty by default).
  public init(counter: Int = 0, actionsByClient: [String: Int] = [:], note: String = "") {
    self.counter = counter
    self.actionsByClient = actionsByClient
    self.note = note
  }
}

/// The counter's reducer: increments and decrements the count, replaces the note, and counts
/// each action with a client id towards that client.
public func counterReducer(_ state: inout CounterState, _ action: any Action) {
  let client: String?
  switch action {
  case let increment as IncrementCounter:
    state.counter += 1
    client = increment.client
  case let decrement as DecrementCounter:
    state.counter -= 1
    client = decrement.client
  case let note as SetNote:
    state.note = note.text
    client = note.client
  default:
    return
  }
  if let client {
    state.actionsByClient[client, default: 0] += 1
  }
}
