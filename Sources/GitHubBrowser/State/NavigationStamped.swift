/// A value of the state that records the number of the last navigation to it, so that the
/// state can drop the least recently navigated ones beyond a bound, deterministically.
protocol NavigationStamped {
  /// The number of the last navigation to it (see ``BrowserState/navigations``).
  var lastNavigation: Int { get }
}

extension BrowserSession: NavigationStamped {}
extension CacheEntry: NavigationStamped {}

extension Dictionary where Key == String, Value: NavigationStamped {
  /// Removes the least recently navigated entries until at most `limit` remain, skipping those
  /// whose key `isKept` (more than `limit` remain only if more than `limit` are kept).
  ///
  /// The order is the stamp, then the key for equal stamps, so the result depends on the
  /// entries alone (and the leader's replay of its journal gives the same state).
  mutating func evictLeastRecentlyNavigated(
    beyond limit: Int, keeping isKept: (String) -> Bool = { _ in false }
  ) {
    let excess = count - limit
    guard excess > 0 else { return }
    let oldest = filter { !isKept($0.key) }.sorted {
      ($0.value.lastNavigation, $0.key) < ($1.value.lastNavigation, $1.key)
    }
    for (key, _) in oldest.prefix(excess) { self[key] = nil }
  }
}
