/// Reads a recording made by an ``ActionRecorder`` and rebuilds the state from it with a reducer,
/// up to any line: time travel without a UI.
///
/// ```swift
/// let replay = ActionReplay(registry: registry)
/// let final = try replay.state(fromFile: "actions.jsonl", initialState: AppState(), reducer: appReducer)
/// let atLine40 = try replay.state(
///   fromFile: "actions.jsonl", initialState: AppState(), reducer: appReducer, throughLine: 40)
/// ```
///
/// Lines are counted from 1; blank lines are skipped (and counted). Reading stops after
/// `throughLine`, so a damaged line after it does not matter. A line before it that is not a
/// recorded action, has an unknown tag or a payload that does not decode throws an
/// ``ActionReplayError`` with its line number; nothing is applied then.
public struct ActionReplay: Sendable {
  /// Decodes the recorded actions by their tags.
  public let registry: ActionRegistry

  /// Creates a replay that decodes actions with `registry`.
  public init(registry: ActionRegistry) {
    self.registry = registry
  }

  /// The actions recorded in the file at `path`, up to line `throughLine` (all when `nil`).
  public func actions(
    inFile path: String, throughLine: Int? = nil
  ) throws(ActionReplayError) -> [RecordedAction] {
    let contents: [UInt8]
    do {
      contents = try POSIXFile.readAll(path)
    } catch {
      throw .cannotRead(path: path, call: error.call, errno: error.errno)
    }
    return try actions(inJSONLines: contents, throughLine: throughLine)
  }

  /// The actions recorded in `contents` (the bytes of a recording), up to line `throughLine`
  /// (all when `nil`).
  public func actions(
    inJSONLines contents: [UInt8], throughLine: Int? = nil
  ) throws(ActionReplayError) -> [RecordedAction] {
    precondition((throughLine ?? 0) >= 0, "Tandem: throughLine must not be negative")
    var actions: [RecordedAction] = []
    var number = 0
    var start = contents.startIndex
    while start < contents.endIndex {
      number += 1
      if let last = throughLine, number > last { break }
      let end = contents[start...].firstIndex(of: UInt8(ascii: "\n")) ?? contents.endIndex
      let line = contents[start..<end]
      start = end < contents.endIndex ? end + 1 : end
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) { continue }
      actions.append(try RecordingLine.decode(Array(line), number: number, registry: registry))
    }
    return actions
  }

  /// The state after applying the actions recorded in the file at `path`, up to line
  /// `throughLine`, to `initialState` with a ReSwift-style `reducer`.
  ///
  /// With a `nil` initial state, the reducer first gets ``TandemInit``, as a store created
  /// without a state would.
  public func state<State>(
    fromFile path: String, initialState: State?, reducer: Reducer<State>,
    throughLine: Int? = nil
  ) throws(ActionReplayError) -> State {
    let recorded = try actions(inFile: path, throughLine: throughLine)
    return Self.apply(recorded, to: initialState, reducer: reducer)
  }

  /// The state after applying the actions recorded in the file at `path`, up to line
  /// `throughLine`, to `initialState` with an in-place `reducer`.
  public func state<State>(
    fromFile path: String, initialState: State, reducer: InoutReducer<State>,
    throughLine: Int? = nil
  ) throws(ActionReplayError) -> State {
    let recorded = try actions(inFile: path, throughLine: throughLine)
    var state = initialState
    for entry in recorded {
      reducer(&state, entry.action)
    }
    return state
  }

  /// Applies `recorded` to `initialState` with `reducer`, starting with ``TandemInit`` when
  /// there is no initial state.
  static func apply<State>(
    _ recorded: [RecordedAction], to initialState: State?, reducer: Reducer<State>
  ) -> State {
    var state = initialState ?? reducer(TandemInit(), nil)
    for entry in recorded {
      state = reducer(entry.action, state)
    }
    return state
  }
}
