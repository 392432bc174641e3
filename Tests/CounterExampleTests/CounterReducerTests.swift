import CounterExample
import Tandem
import Testing

@Suite("The counter's state, actions and reducer")
struct CounterReducerTests {
  @Test func incrementAndDecrementChangeTheCount() {
    var state = CounterState()
    counterReducer(&state, IncrementCounter())
    counterReducer(&state, IncrementCounter())
    counterReducer(&state, DecrementCounter())
    #expect(state.counter == 1)
    #expect(state.actionsByClient.isEmpty)
  }

  @Test func actionsWithAClientAreCountedForIt() {
    var state = CounterState()
    counterReducer(&state, IncrementCounter(client: "a"))
    counterReducer(&state, DecrementCounter(client: "a"))
    counterReducer(&state, SetNote(text: "hi", client: "b"))
    #expect(state == CounterState(counter: 0, actionsByClient: ["a": 2, "b": 1], note: "hi"))
  }

  @Test func otherActionsChangeNothing() {
    struct Unrelated: Action {}
    var state = CounterState(counter: 3)
    counterReducer(&state, Unrelated())
    #expect(state == CounterState(counter: 3))
  }

  @Test func theTagsAreStableAndAnEmptyPayloadDecodes() throws {
    #expect(counterRegistry.tags == ["counter.decrement", "counter.increment", "counter.note"])
    let action = try counterRegistry.decode(tag: "counter.increment", payload: Array("{}".utf8))
    #expect(action as? IncrementCounter == IncrementCounter())
    #expect(throws: ActionRegistryError.self) {
      try counterRegistry.decode(tag: "counter.note", payload: Array("{}".utf8))
    }
  }

  @Test func theLineShowsCountShareAndKeys() {
    let state = CounterState(counter: 42, actionsByClient: ["me": 7, "you": 35])
    #expect(
      CounterView.line(state, client: "me")
        == "count 42  (you 7 of 42 actions, 2 clients)  [+] increment  [-] decrement  [q] quit")
    let noted = CounterState(
      counter: 1, actionsByClient: ["me": 1], note: String(repeating: "n", count: 40))
    #expect(
      CounterView.line(noted, client: "me").contains(
        "note \"\(String(repeating: "n", count: 24))...\""))
  }
}
