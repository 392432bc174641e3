/// Where one browser client is: its screen and the repository selected in it.
public struct Route: Codable, Equatable, Sendable {
  /// The screens of the browser.
  public enum Screen: Codable, Equatable, Sendable {
    /// The list of a source's repositories.
    case repositories(RepositorySource)
    /// One repository's detail.
    case repository(owner: String, name: String)
    /// The user's bookmarks.
    case bookmarks
  }

  /// The screen shown.
  public var screen: Screen
  /// The repository highlighted on it (`owner/name`), if any.
  public var selection: String?

  /// A route.
  public init(screen: Screen, selection: String? = nil) {
    self.screen = screen
    self.selection = selection
  }
}
