/// One repository as lists show it.
public struct RepositorySummary: Codable, Equatable, Sendable {
  /// GitHub's numeric id.
  public var id: Int
  /// The owner's login.
  public var owner: String
  /// The repository's name.
  public var name: String
  /// The description, if any.
  public var description: String?
  /// The main language, if GitHub detected one.
  public var language: String?
  /// The number of stars.
  public var stars: Int
  /// The number of forks.
  public var forks: Int
  /// Whether the repository is private.
  public var isPrivate: Bool
  /// The default branch, such as `main`.
  public var defaultBranch: String
  /// When it was last updated, as GitHub's ISO 8601 text.
  public var updatedAt: String

  /// A summary with every field given.
  public init(
    id: Int, owner: String, name: String, description: String? = nil, language: String? = nil,
    stars: Int = 0, forks: Int = 0, isPrivate: Bool = false, defaultBranch: String = "main",
    updatedAt: String = ""
  ) {
    self.id = id
    self.owner = owner
    self.name = name
    self.description = description
    self.language = language
    self.stars = stars
    self.forks = forks
    self.isPrivate = isPrivate
    self.defaultBranch = defaultBranch
    self.updatedAt = updatedAt
  }

  /// `owner/name`.
  public var fullName: String { "\(owner)/\(name)" }
}
