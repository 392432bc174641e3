import Foundation
import Synchronization
import Tandem
import Testing

/// Redux-ReactiveSwift's counter example: plus and minus, clamped to 0...10 by a second reducer.
enum ButtonEvent: Equatable, Sendable, Codable {
  case plus
  case minus
  case add(Int)
}

let quantityReducer: EventStore<Int, ButtonEvent>.Reducer = { state, event in
  switch event {
  case .plus: state + 1
  case .minus: state - 1
  case .add(let amount): state + amount
  }
}

let quantityClamper: EventStore<Int, ButtonEvent>.Reducer = { state, _ in
  min(max(state, 0), 10)
}

@Suite struct EventStoreTests {
  @Test func reducersAreAppliedInOrderEachToWhatThePreviousReturned() {
    let store = EventStore<Int, ButtonEvent>(
      state: 1, reducers: [{ state, _ in state * 10 }, { state, _ in state + 1 }])
    store.consume(event: .plus)
    #expect(store.value == 11)
    store.consume(event: .plus)
    #expect(store.value == 111)
  }

  @Test func secondReducerClampsWhatTheFirstDid() {
    let store = EventStore<Int, ButtonEvent>(
      state: 1, reducers: [quantityReducer, quantityClamper])
    for _ in 0..<15 { store.consume(event: .plus) }
    #expect(store.value == 10)
    for _ in 0..<20 { store.consume(event: .minus) }
    #expect(store.value == 0)
  }

  @Test func inPlaceReducersAreAppliedInOrder() {
    let store = EventStore<[Int], ButtonEvent>(
      state: [],
      inPlaceReducers: [
        { state, event in if case .add(let amount) = event { state.append(amount) } },
        { state, _ in state.append(-1) },
      ])
    store.consume(event: .add(5))
    store.consume(event: .plus)
    #expect(store.value == [5, -1, -1])
  }

  @Test func consumeFromManyThreadsAtOnceAppliesEveryEventOnce() {
    let store = EventStore<Int, ButtonEvent>(state: 0, reducers: [quantityReducer])
    let seen = Recorder<Int>()
    store.store.subscribe(seen)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<10_000 { store.consume(event: .plus) }
    }
    #expect(store.value == 40_000)
    // Every state, once and in order.
    #expect(seen.values == Array(0...40_000))
  }

  @Test func selectionIsReadSynchronouslyAndDerivedAgain() {
    let store = EventStore<Int, ButtonEvent>(state: 3, reducers: [quantityReducer])
    let text = store.map { "\($0) items" }
    let length = text.map(\.count)
    #expect(text.value == "3 items")
    store.consume(event: .add(10))
    #expect(text.value == "13 items")
    #expect(length.value == 8)
  }

  @Test func observedSelectionSkipsRepeatsAndYieldsChanges() async {
    let store = EventStore<Int, ButtonEvent>(
      state: 1, reducers: [quantityReducer, quantityClamper])
    let isFull = store.map { $0 >= 5 }
    var values = isFull.makeAsyncIterator()
    #expect(await values.next() == false)
    store.consume(event: .plus)  // 2: still false, skipped
    store.consume(event: .plus)  // 3
    store.consume(event: .add(2))  // 5: true
    #expect(await values.next() == true)
    store.consume(event: .plus)  // 6: still true, skipped
    store.consume(event: .add(-5))  // 1: false
    #expect(await values.next() == false)
  }

  @Test func statesAreObservedAsAnAsyncSequence() async {
    let store = EventStore<Int, ButtonEvent>(
      state: 1, reducers: [quantityReducer, quantityClamper])
    var states = store.states.makeAsyncIterator()
    #expect(await states.next() == 1)
    store.consume(event: .minus)
    #expect(await states.next() == 0)
    store.consume(event: .minus)  // clamped to 0 again: skipped
    store.consume(event: .plus)
    #expect(await states.next() == 1)
  }

  @Test func middlewareSeesEventsAndMayConsumeOrSwallowThem() {
    let log = EventLog()
    let doubler: EventMiddleware<Int, ButtonEvent> = { consume, getState in
      { next in
        { event in
          log.append("\(event) at \(getState())")
          switch event {
          case .plus where getState() == 0: consume(.add(2))  // through the chain again
          case .minus: break  // swallowed
          default: next(event)
          }
        }
      }
    }
    let store = EventStore<Int, ButtonEvent>(
      state: 0, reducers: [quantityReducer], middleware: [doubler])
    store.consume(event: .plus)
    store.consume(event: .minus)
    store.consume(event: .plus)
    #expect(store.value == 3)
    #expect(log.events == ["plus at 0", "add(2) at 0", "minus at 2", "plus at 2"])
  }

  @Test func eventStoreOverAStoreDispatchesEventActionsToIt() {
    let store = Store<Int>(
      reducer: { state, action in
        if let event = (action as? EventAction<ButtonEvent>)?.event {
          state = quantityReducer(state, event)
        }
      }, state: 0)
    let events = EventStore<Int, ButtonEvent>(store: store)
    events.consume(event: .add(4))
    #expect(store.state == 4)
    #expect(events.value == 4)
  }
}
