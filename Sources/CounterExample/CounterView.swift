/// The one line an interactive `counter follower` shows and redraws on every change.
public enum CounterView {
  /// The keys the interactive follower understands, as its help line shows them.
  public static let keys = "[+] increment  [-] decrement  [q] quit"

  /// The count, this client's share of the actions, and how many clients acted, e.g.
  /// `count 42  (you 7 of 42 actions, 2 clients)  [+] increment  [-] decrement  [q] quit`.
  public static func line(_ state: CounterState, client: String) -> String {
    let yours = state.actionsByClient[client] ?? 0
    let total = state.actionsByClient.values.reduce(0, +)
    let clients = state.actionsByClient.count
    var line =
      "count \(state.counter)  (you \(yours) of \(total) action\(total == 1 ? "" : "s"), "
      + "\(clients) client\(clients == 1 ? "" : "s"))"
    if !state.note.isEmpty {
      let note = state.note.count > 24 ? String(state.note.prefix(24)) + "..." : state.note
      line += "  note \"\(note)\""
    }
    return line + "  " + keys
  }
}
