/// The repositories of one ``RepositorySource``, page by page.
public struct RepositoryList: Codable, Equatable, Sendable {
  /// The repositories of every page loaded so far, in GitHub's order.
  public var repositories: [RepositorySummary] = []
  /// How many pages are loaded (pages are loaded in order, starting at 1).
  public var pagesLoaded = 0
  /// The next page to load, from the `Link` header's `rel="next"`; `nil` when all are loaded,
  /// or when it lies beyond ``BrowserState/maximumListPages``.
  public var nextPage: Int?
  /// The last page, from the `Link` header's `rel="last"`, when GitHub gave it.
  public var lastPage: Int?
  /// Where loading stands.
  public var status = LoadStatus.idle

  /// An empty list that has not been loaded.
  public init() {}

  /// Whether there are pages left to load.
  public var hasMore: Bool { nextPage != nil || pagesLoaded == 0 }
}
