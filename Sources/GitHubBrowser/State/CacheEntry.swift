/// One entry of the state's caches, ``BrowserState/repositoryLists`` and
/// ``BrowserState/repositories``: the data, and when it was last navigated to, which decides
/// what goes first beyond the caches' bounds.
public struct CacheEntry<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
  /// The cached data.
  public var value: Value
  /// The number of the last navigation to the data (see ``BrowserState/navigations``), or, if
  /// none has shown it since the entry was made, of the last navigation before that: of two
  /// entries, the one with the lower number is the less recently navigated to.
  public var lastNavigation: Int

  /// An entry holding `value`, last navigated to by navigation number `lastNavigation`.
  public init(_ value: Value, lastNavigation: Int) {
    self.value = value
    self.lastNavigation = lastNavigation
  }
}
