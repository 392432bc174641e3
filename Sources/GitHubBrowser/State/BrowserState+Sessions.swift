extension BrowserState {
  /// The most sessions the state keeps. A navigation of a session the state does not have,
  /// when it already has this many, first ends the least recently active one (the lowest
  /// ``BrowserSession/lastNavigation``), so clients that make up ever-new session ids cannot
  /// grow the state without bound.
  public static let maximumSessions = 1_000

  /// Moves `session` to `route` as navigation number ``navigations`` + 1, first ending the
  /// least recently active sessions if a new one would exceed ``maximumSessions``.
  mutating func navigate(session: String, to route: Route) {
    navigations += 1
    let excess = sessions[session] == nil ? sessions.count + 1 - Self.maximumSessions : 0
    if excess > 0 {
      // Stamps are unique, so the order (and the replay of the journal) is deterministic; the
      // key breaks ties only in a state made by hand.
      let oldest = sessions.sorted {
        ($0.value.lastNavigation, $0.key) < ($1.value.lastNavigation, $1.key)
      }
      for (key, _) in oldest.prefix(excess) { sessions[key] = nil }
    }
    sessions[session] = BrowserSession(route: route, lastNavigation: navigations)
  }
}
