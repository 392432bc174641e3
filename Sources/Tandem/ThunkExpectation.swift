import Synchronization

/// Runs a ``Thunk`` against a given state, without a store, and checks that it dispatched exactly
/// the expected actions, in order: ReSwift-Thunk's `ExpectThunk`.
///
/// ```swift
/// let outcome = await ThunkExpectation(loadUser, state: AppState())
///   .dispatches(SetLoading(true))                        // an Equatable action
///   .dispatches(SetUser.self) { $0.user?.name == "Ann" } // a type and a predicate
///   .dispatches(SetLoading(false))
///   .run()
/// #expect(outcome.failures.isEmpty, "\(outcome.failures)")
/// ```
///
/// The thunk's `getState` returns `state`; with a `reducer`, each dispatched action is reduced
/// first, so `getState` shows it applied, as in a store. Actions the thunk dispatches are recorded
/// and not run: a thunk it dispatches is recorded as a thunk. ``run()`` returns once the body has
/// finished, `async` or not.
///
/// The Tandem module does not link Swift Testing; the `failures` of the outcome are plain
/// messages for your test framework. With Swift Testing, report them at the caller with
/// `Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)`
/// (see <doc:Thunks>).
public struct ThunkExpectation<State: Sendable>: Sendable {
  /// One expected action.
  struct Expected: Sendable {
    /// How the expectation reads in a message.
    let summary: String
    /// Whether `action` meets it.
    let matches: @Sendable (any Action) -> Bool
  }

  private let thunk: Thunk<State>
  private let state: State?
  private let reducer: Reducer<State>?
  private var expected: [Expected] = []

  /// Prepares to run `thunk` against `state`.
  ///
  /// - Parameters:
  ///   - thunk: The thunk under test.
  ///   - state: What `getState` returns (before any dispatched action, when `reducer` is given).
  ///   - reducer: When given, applies each dispatched action to the state `getState` returns.
  public init(_ thunk: Thunk<State>, state: State?, reducer: Reducer<State>? = nil) {
    self.thunk = thunk
    self.state = state
    self.reducer = reducer
  }

  /// Expects the next dispatched action to equal `action` (same type, `==`).
  public func dispatches<A: Action & Equatable>(_ action: A) -> ThunkExpectation {
    adding(
      Expected(summary: String(describing: action)) { dispatched in
        (dispatched as? A) == action
      })
  }

  /// Expects the next dispatched action to be of type `type` and to satisfy `predicate`.
  public func dispatches<A: Action>(
    _ type: A.Type, where predicate: @escaping @Sendable (A) -> Bool = { _ in true }
  ) -> ThunkExpectation {
    adding(
      Expected(summary: "a \(A.self) satisfying the predicate") { dispatched in
        guard let typed = dispatched as? A else { return false }
        return predicate(typed)
      })
  }

  /// Expects the next dispatched action to satisfy `predicate`, described by `summary`.
  public func dispatches(
    _ summary: String, where predicate: @escaping @Sendable (any Action) -> Bool
  ) -> ThunkExpectation {
    adding(Expected(summary: summary, matches: predicate))
  }

  private func adding(_ expectation: Expected) -> ThunkExpectation {
    var copy = self
    copy.expected.append(expectation)
    return copy
  }

  /// Runs the thunk to its end and compares what it dispatched with the expectations.
  public func run() async -> ThunkOutcome<State> {
    let log = Mutex<(actions: [any Action], state: State?)>(([], state))
    let reducer = self.reducer
    let dispatch: DispatchFunction = { action in
      log.withLock { log in
        log.actions.append(action)
        if let reducer {
          log.state = reducer(action, log.state)
        }
      }
    }
    await thunk.run(dispatch: dispatch, getState: { log.withLock { $0.state } })
    let (actions, finalState) = log.withLock { ($0.actions, $0.state) }
    return ThunkOutcome(
      dispatched: actions, finalState: finalState, failures: compare(actions))
  }

  /// The mismatches between `actions` and the expectations, one message each.
  private func compare(_ actions: [any Action]) -> [String] {
    var failures: [String] = []
    for index in 0..<max(actions.count, expected.count) {
      let position = "action \(index + 1)"
      switch (index < actions.count ? actions[index] : nil, index < expected.count) {
      case (let action?, true):
        if !expected[index].matches(action) {
          failures.append("\(position): expected \(expected[index].summary), got \(action)")
        }
      case (let action?, false):
        failures.append("\(position): unexpected \(action)")
      case (nil, true):
        failures.append(
          "\(position): expected \(expected[index].summary), but nothing was dispatched")
      case (nil, false):
        break
      }
    }
    return failures
  }
}

/// What a thunk did when a ``ThunkExpectation`` ran it.
public struct ThunkOutcome<State: Sendable>: Sendable {
  /// Every action the thunk dispatched, in order.
  public let dispatched: [any Action]
  /// The state `getState` returned last (the given state with the actions applied, when the
  /// expectation has a reducer).
  public let finalState: State?
  /// One message per mismatch between what was dispatched and what was expected; empty when
  /// the thunk dispatched exactly the expected actions in order.
  public let failures: [String]

  /// Whether the thunk dispatched exactly the expected actions, in order.
  public var isSatisfied: Bool { failures.isEmpty }
}
