import Foundation
import Synchronization
import Testing

@testable import Tandem

/// The replica's in-place hook, `Store.modifyState(_:)`.
@Suite struct ModifyStateTests {
  struct Numbers: Equatable, Sendable {
    var values: [Int] = Array(0..<1000)
    var label = "numbers"
  }

  private func makeStore() -> Store<Numbers> {
    Store(reducer: { (_: inout Numbers, _: any Action) in }, state: Numbers())
  }

  @Test func aChangeIsMadeWhereTheStateLiesAndNotifiedOnce() {
    let store = makeStore()
    let firsts = Recorder<Int>()
    store.subscribe(firsts) { $0.select { $0.values[0] } }
    let addresses = Mutex<[Int]>([])
    store.modifyState { state in
      let before = state.values.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
      state.values[0] = 42
      let after = state.values.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
      addresses.withLock { $0 = [before, after] }
      return true
    }
    let seen = addresses.withLock { $0 }
    #expect(seen.count == 2 && seen[0] == seen[1], "the array was copied")
    #expect(store.state.values[0] == 42)
    #expect(firsts.values == [0, 42])
  }

  @Test func anUnchangedStateNotifiesNoOne() {
    let store = makeStore()
    let labels = Recorder<String>()
    store.subscribe(labels) { $0.select(\.label) }
    store.modifyState { _ in false }
    #expect(labels.values == ["numbers"])
    #expect(store.state == Numbers())
  }

  @Test func aReaderOnAnotherThreadWaitsForTheChange() {
    let store = makeStore()
    let label = Mutex<String?>(nil)
    let readerDone = DispatchSemaphore(value: 0)
    let readerWaited = Mutex(false)
    store.modifyState { state in
      // Start a reader (a thread of its own, not the test's busy task pool) while the state is
      // being changed, and hold the state until the reader is waiting for it (bounded).
      Thread.detachNewThread {
        label.withLock { $0 = store.state.label }
        readerDone.signal()
      }
      waitOnThisThread { !store.core.withLock { $0.readers.isEmpty } }
      readerWaited.withLock { $0 = !store.core.withLock { $0.readers.isEmpty } }
      state.label = "changed"
      return true
    }
    #expect(readerWaited.withLock { $0 })
    readerDone.wait()
    #expect(label.withLock { $0 } == "changed")
  }

  @Test func aChangeFromAnotherStoresSubscriberTraps() async {
    // Another thread could be draining the replica: the change would have to wait for it.
    await #expect(processExitsWith: .failure) {
      let replica = Store(reducer: counterInPlaceReducer, state: CounterState())
      let store = Store(reducer: counterInPlaceReducer, state: CounterState())
      let subscriber = Recorder<Int> { counter in
        if counter == 1 { replica.modifyState { _ in false } }
      }
      store.subscribe(subscriber) { $0.select(\.counter) }
      store.dispatch(Increment())
    }
  }
}
