extension BrowserState {
  /// The most sessions the state keeps. A navigation of a session the state does not have,
  /// when it already has this many, first ends the least recently active one (the lowest
  /// ``BrowserSession/lastNavigation``), so clients that make up ever-new session ids cannot
  /// grow the state without bound.
  public static let maximumSessions = 1_000

  /// Moves `session`, signed in as `account`, to `route` as navigation number ``navigations`` + 1, then ends the least
  /// recently active session if a new one took the state beyond ``maximumSessions``.
  mutating func navigate(session: String, to route: Route, account: String) {
    navigations += 1
    sessions[session] = BrowserSession(
      route: route, lastNavigation: navigations, account: account)
    // The new session has the highest stamp (they are unique), so it is never the one ended.
    sessions.evictLeastRecentlyNavigated(beyond: Self.maximumSessions)
  }
}
