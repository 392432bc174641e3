import Synchronization
import Tandem
import Testing

private struct ThunkState: Equatable, Sendable {
  var value = 0
  var loading = false
}

private struct Bump: Action, Equatable {}
private struct SetLoading: Action, Equatable { var loading: Bool }
private struct SetValue: Action, Equatable { var value: Int }

private let thunkReducer: Reducer<ThunkState> = { action, state in
  var state = state ?? ThunkState()
  switch action {
  case is Bump: state.value += 1
  case let set as SetValue: state.value = set.value
  case let set as SetLoading: state.loading = set.loading
  default: break
  }
  return state
}

/// Every action the reducer saw, to check what reached it.
private final class ReducedLog: Sendable {
  private let actions = Mutex<[String]>([])
  var names: [String] { actions.withLock { $0 } }
  func reducer(_ base: @escaping Reducer<ThunkState>) -> Reducer<ThunkState> {
    { action, state in
      self.actions.withLock { $0.append(String(describing: type(of: action))) }
      return base(action, state)
    }
  }
}

/// A one-shot signal an async thunk sends when it has started.
private func startSignal() -> (stream: AsyncStream<Void>, send: @Sendable () -> Void) {
  let (stream, continuation) = AsyncStream<Void>.makeStream()
  return (stream, { continuation.yield() })
}

private func firstSignal(_ stream: AsyncStream<Void>) async {
  for await _ in stream { return }
}

/// An async thunk that signals, then waits to be cancelled, then tries to dispatch.
private func waitingThunk(
  id: ThunkID?, cancelsInFlight: Bool = false, started: @escaping @Sendable () -> Void,
  sawCancellation: EventFlag
) -> Thunk<ThunkState> {
  Thunk(id: id, cancelsInFlight: cancelsInFlight) { dispatch, _ in
    started()
    // Sleeps until cancelled: cancellation, not the time, ends the wait.
    try? await Task.sleep(for: .seconds(600))
    if Task.isCancelled { sawCancellation.set() }
    dispatch(SetValue(value: -1))
  }
}

/// A flag set once, which a test can await.
private final class EventFlag: Sendable {
  private let state = Mutex<(isSet: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  var isSet: Bool { state.withLock { $0.isSet } }

  func set() {
    let waiters = state.withLock { state in
      state.isSet = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the flag is set.
  func wait() async {
    await withCheckedContinuation { continuation in
      let isSet = state.withLock { state in
        if !state.isSet { state.waiters.append(continuation) }
        return state.isSet
      }
      if isSet { continuation.resume() }
    }
  }
}

@Suite("Thunks", .timeLimit(.minutes(1)))
struct ThunkTests {
  @Test("a synchronous thunk runs before dispatch returns and sees its dispatches applied")
  func syncThunk() {
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [createThunkMiddleware()])
    let seen = Mutex<[Int]>([])
    store.dispatch(
      Thunk<ThunkState> { dispatch, getState in
        dispatch(Bump())
        seen.withLock { $0.append(getState()!.value) }
        dispatch(Bump())
        seen.withLock { $0.append(getState()!.value) }
      })
    #expect(store.state.value == 2)
    #expect(seen.withLock { $0 } == [1, 2])
  }

  @Test("a thunk never reaches the reducer; other actions pass through")
  func thunkIsSwallowed() {
    let log = ReducedLog()
    let store = Store<ThunkState>(
      reducer: log.reducer(thunkReducer), state: ThunkState(),
      middleware: [createThunkMiddleware()])
    store.dispatch(Thunk<ThunkState> { dispatch, _ in dispatch(Bump()) })
    store.dispatch(Bump())
    #expect(log.names == ["Bump", "Bump"])
  }

  @Test("an async thunk runs in a task; waitUntilIdle returns when it is done")
  func asyncThunk() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [thunks.middleware])
    store.dispatch(
      Thunk<ThunkState>(operation: { dispatch, getState in
        dispatch(SetLoading(loading: true))
        await Task.yield()
        dispatch(SetValue(value: (getState()?.value ?? 0) + 41))
        dispatch(Bump())
        dispatch(SetLoading(loading: false))
      }))
    await thunks.waitUntilIdle()
    #expect(store.state == ThunkState(value: 42, loading: false))
    #expect(thunks.runningCount == 0)
  }

  @Test("an async thunk can be written as a trailing closure")
  func asyncTrailingClosure() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [thunks.middleware])
    let thunk = Thunk<ThunkState> { dispatch, _ in
      await Task.yield()
      dispatch(Bump())
    }
    #expect(thunk.isAsync)
    store.dispatch(thunk)
    await thunks.waitUntilIdle()
    #expect(store.state.value == 1)
  }

  @Test("a thunk can dispatch another thunk")
  func nestedThunk() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [thunks.middleware])
    let inner = Thunk<ThunkState> { dispatch, _ in dispatch(SetValue(value: 7)) }
    store.dispatch(Thunk<ThunkState>(operation: { dispatch, _ in dispatch(inner) }))
    await thunks.waitUntilIdle()
    #expect(store.state.value == 7)
  }

  @Test("cancel(id:) cancels the running thunk and drops what it dispatches afterwards")
  func cancelByID() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [thunks.middleware])
    let (started, signal) = startSignal()
    let cancelled = EventFlag()
    store.dispatch(waitingThunk(id: "wait", started: signal, sawCancellation: cancelled))
    await firstSignal(started)
    #expect(thunks.runningCount == 1)
    thunks.cancel(id: "other")
    #expect(thunks.runningCount == 1)
    thunks.cancel(id: "wait")
    await thunks.waitUntilIdle()
    #expect(cancelled.isSet)
    #expect(store.state.value == 0)
  }

  @Test("dispatching CancelThunks cancels by id, and CancelThunks.all cancels every thunk")
  func cancelByAction() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let log = ReducedLog()
    let store = Store<ThunkState>(
      reducer: log.reducer(thunkReducer), state: ThunkState(), middleware: [thunks.middleware])
    let (started, signal) = startSignal()
    let flags = [EventFlag(), EventFlag(), EventFlag()]
    store.dispatch(waitingThunk(id: "a", started: signal, sawCancellation: flags[0]))
    store.dispatch(waitingThunk(id: "b", started: signal, sawCancellation: flags[1]))
    store.dispatch(waitingThunk(id: nil, started: signal, sawCancellation: flags[2]))
    var iterator = started.makeAsyncIterator()
    for _ in 0..<3 { _ = await iterator.next() }
    store.dispatch(CancelThunks(id: "a"))
    await flags[0].wait()
    // The cancelled thunk saw its cancellation; its task leaves the table as it ends, just
    // after: a bounded wait for that, not a sleep standing in for it.
    let deadline = ContinuousClock.now + .seconds(5)
    while thunks.runningCount > 2, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    #expect(thunks.runningCount == 2)
    store.dispatch(CancelThunks.all)
    await thunks.waitUntilIdle()
    #expect(flags.allSatisfy { $0.isSet })
    #expect(log.names.isEmpty)
    #expect(store.state.value == 0)
  }

  @Test("a thunk that cancels in flight cancels the running one with its id")
  func cancelsInFlight() async {
    let thunks = ThunkMiddleware<ThunkState>()
    let store = Store<ThunkState>(
      reducer: thunkReducer, state: ThunkState(), middleware: [thunks.middleware])
    let (started, signal) = startSignal()
    let first = EventFlag()
    let second = EventFlag()
    store.dispatch(waitingThunk(id: "search", started: signal, sawCancellation: first))
    var iterator = started.makeAsyncIterator()
    _ = await iterator.next()
    store.dispatch(
      waitingThunk(id: "search", cancelsInFlight: true, started: signal, sawCancellation: second))
    _ = await iterator.next()
    await first.wait()
    #expect(!second.isSet)
    thunks.cancelAll()
    await thunks.waitUntilIdle()
    #expect(second.isSet)
  }

  @Test("releasing the store cancels the thunks its middleware started")
  func storeReleaseCancels() async {
    let (started, signal) = startSignal()
    let cancelled = EventFlag()
    do {
      let store = Store<ThunkState>(
        reducer: thunkReducer, state: ThunkState(), middleware: [createThunkMiddleware()])
      store.dispatch(waitingThunk(id: nil, started: signal, sawCancellation: cancelled))
      await firstSignal(started)
    }
    // The released middleware cancelled the task, whose sleep ends and sets the flag.
    await cancelled.wait()
    #expect(cancelled.isSet)
  }

  @Test("ThunkExpectation passes when the thunk dispatches exactly the expected actions")
  func expectationPasses() async {
    let thunk = Thunk<ThunkState>(operation: { dispatch, getState in
      dispatch(SetLoading(loading: true))
      dispatch(SetValue(value: (getState()?.value ?? 0) * 2))
      dispatch(SetLoading(loading: false))
    })
    let outcome = await ThunkExpectation(thunk, state: ThunkState(value: 21))
      .dispatches(SetLoading(loading: true))
      .dispatches(SetValue.self) { $0.value == 42 }
      .dispatches(SetLoading(loading: false))
      .verify()
    #expect(outcome.dispatched.count == 3)
  }

  @Test("ThunkExpectation reports a wrong, a missing and an extra action with their positions")
  func expectationFailures() async {
    let thunk = Thunk<ThunkState> { dispatch, _ in
      dispatch(Bump())
      dispatch(SetValue(value: 3))
    }
    let wrong = await ThunkExpectation(thunk, state: ThunkState())
      .dispatches(Bump())
      .dispatches(SetValue(value: 4))
      .run()
    #expect(wrong.failures == ["action 2: expected SetValue(value: 4), got SetValue(value: 3)"])
    let missing = await ThunkExpectation(thunk, state: ThunkState())
      .dispatches(Bump()).dispatches(SetValue(value: 3)).dispatches(Bump())
      .run()
    #expect(missing.failures == ["action 3: expected Bump(), but nothing was dispatched"])
    let extra = await ThunkExpectation(thunk, state: ThunkState()).dispatches(Bump()).run()
    #expect(extra.failures == ["action 2: unexpected SetValue(value: 3)"])
    #expect(!extra.isSatisfied)
  }

  @Test("ThunkExpectation with a reducer lets getState see the dispatched actions applied")
  func expectationWithReducer() async {
    let thunk = Thunk<ThunkState> { dispatch, getState in
      dispatch(Bump())
      dispatch(SetValue(value: getState()!.value + 10))
    }
    let outcome = await ThunkExpectation(thunk, state: ThunkState(value: 1), reducer: thunkReducer)
      .dispatches(Bump())
      .dispatches(SetValue(value: 12))
      .verify()
    #expect(outcome.finalState == ThunkState(value: 12))
  }
}
