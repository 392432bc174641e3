/// A repository bookmarked by a user (an account); each account has its own bookmarks.
public struct Bookmark: Codable, Equatable, Hashable, Sendable {
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String

  /// A bookmark of `owner/name`.
  public init(owner: String, name: String) {
    self.owner = owner
    self.name = name
  }

  /// `owner/name`.
  public var fullName: String { "\(owner)/\(name)" }
}
