import Synchronization
import Testing

@testable import Tandem

private struct Tally: Equatable, Sendable {
  var count = 0
  var label = ""
}

/// A state that is not `Equatable`, so every new state is delivered.
private struct Opaque: Sendable {
  var count = 0
}

private struct Step: Action {}
private struct Relabel: Action { var label: String }

private func tallyStore() -> Store<Tally> {
  Store<Tally>(
    reducer: { state, action in
      switch action {
      case is Step: state.count += 1
      case let relabel as Relabel: state.label = relabel.label
      default: break
      }
    }, state: Tally())
}

private func subscriptionCount<State>(_ store: Store<State>) -> Int {
  store.core.withLock { $0.subscriptions.count }
}

@Suite("Async observation", .timeLimit(.minutes(1)))
struct AsyncObservationTests {
  @Test("states yields the current state, then each new state")
  func statesInOrder() async {
    let store = tallyStore()
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next() == Tally())
    store.dispatch(Step())
    #expect(await iterator.next() == Tally(count: 1))
    store.dispatch(Relabel(label: "a"))
    #expect(await iterator.next() == Tally(count: 1, label: "a"))
  }

  @Test("values of an Equatable selection skip repeats")
  func valuesSkipRepeats() async {
    let store = tallyStore()
    var iterator = store.values(\.count).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    store.dispatch(Relabel(label: "unrelated"))
    store.dispatch(Step())
    #expect(await iterator.next() == 1)
  }

  @Test("states of an Equatable state skip a state equal to the previous one")
  func equatableStatesSkipRepeats() async {
    let store = tallyStore()
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next() == Tally())
    store.dispatch(Relabel(label: ""))
    store.dispatch(Step())
    #expect(await iterator.next() == Tally(count: 1))
  }

  @Test("a value that changes and changes back while the consumer is busy is not repeated")
  func latestEqualToLastIsSkipped() async {
    let store = tallyStore()
    var iterator = store.values { $0.label }.makeAsyncIterator()
    #expect(await iterator.next() == "")
    store.dispatch(Relabel(label: "x"))
    store.dispatch(Relabel(label: ""))
    store.dispatch(Step())
    store.dispatch(Relabel(label: "y"))
    #expect(await iterator.next() == "y")
  }

  @Test("a non-Equatable state is delivered after every dispatch")
  func nonEquatableStates() async {
    let store = Store<Opaque>(
      reducer: { state, action in if action is Step { state.count += 1 } }, state: Opaque())
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next()?.count == 0)
    store.dispatch(Relabel(label: "ignored"))
    #expect(await iterator.next()?.count == 0)
    store.dispatch(Step())
    #expect(await iterator.next()?.count == 1)
  }

  @Test("a slow consumer gets the latest value, not a queue of every value")
  func slowConsumerGetsLatest() async {
    let store = tallyStore()
    var counts = store.values(\.count).makeAsyncIterator()
    var states = store.states.makeAsyncIterator()
    #expect(await counts.next() == 0)
    #expect(await states.next() == Tally())
    for _ in 0..<1_000 {
      store.dispatch(Step())
    }
    // 1,000 states were published while neither consumer was reading; each kept only the last.
    #expect(await counts.next() == 1_000)
    #expect(await states.next() == Tally(count: 1_000))
    store.dispatch(Step())
    #expect(await counts.next() == 1_001)
  }

  @Test("the sequence ends when the store is deallocated, and does not keep it alive")
  func endsWithStore() async {
    var store: Store<Tally>? = tallyStore()
    weak let weakStore = store
    var iterator = store!.values(\.count).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    store = nil
    #expect(weakStore == nil)
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("a consumer waiting for a value is woken with nil when the store goes away")
  func waitingConsumerEndsWithStore() async {
    var store: Store<Tally>? = tallyStore()
    let observation = store!.values(\.count)
    let (ready, signal) = AsyncStream<Void>.makeStream()
    let consumer = Task {
      var received: [Int] = []
      for await count in observation {
        received.append(count)
        signal.yield()
      }
      return received
    }
    for await _ in ready { break }
    store!.dispatch(Step())
    for await _ in ready { break }
    store = nil
    #expect(await consumer.value == [0, 1])
  }

  @Test("cancelling the consuming task ends the loop and unsubscribes")
  func cancellationEnds() async {
    let store = tallyStore()
    let (ready, signal) = AsyncStream<Void>.makeStream()
    let consumer = Task {
      var received = 0
      for await _ in store.states {
        received += 1
        signal.yield()
      }
      return received
    }
    for await _ in ready { break }
    consumer.cancel()
    #expect(await consumer.value == 1)
    #expect(subscriptionCount(store) == 0)
  }

  @Test("leaving the loop unsubscribes from the store")
  func breakUnsubscribes() async {
    let store = tallyStore()
    for await count in store.values(\.count) {
      #expect(subscriptionCount(store) == 1)
      if count == 0 { break }
    }
    #expect(subscriptionCount(store) == 0)
  }

  @Test("each iterator has its own subscription and sees every change")
  func independentIterators() async {
    let store = tallyStore()
    let counts = store.values(\.count)
    var first = counts.makeAsyncIterator()
    var second = counts.makeAsyncIterator()
    #expect(await first.next() == 0)
    store.dispatch(Step())
    #expect(await second.next() == 1)
    #expect(await first.next() == 1)
    #expect(subscriptionCount(store) == 2)
  }

  @Test("values dispatched from many tasks all reach a consumer that keeps up with the end")
  func concurrentDispatchers() async {
    let store = tallyStore()
    var iterator = store.values(\.count).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<250 { store.dispatch(Step()) }
        }
      }
    }
    var last = 0
    while last < 2_000, let count = await iterator.next() {
      #expect(count > last)
      last = count
    }
    #expect(last == 2_000)
  }
}
