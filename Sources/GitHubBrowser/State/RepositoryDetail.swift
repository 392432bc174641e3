/// One repository's screen: its metadata, README, branches and recent commits.
public struct RepositoryDetail: Codable, Equatable, Sendable {
  /// The metadata, once loaded.
  public var summary: RepositorySummary?
  /// The README's text; `nil` when not loaded or when the repository has none.
  public var readme: String?
  /// The branches (first page).
  public var branches: [Branch] = []
  /// The most recent commits on the default branch, newest first.
  public var commits: [CommitSummary] = []
  /// Where loading stands.
  public var status = LoadStatus.idle

  /// A detail that has not been loaded.
  public init() {}
}

/// A branch and the commit it points to.
public struct Branch: Codable, Equatable, Sendable {
  /// The branch name.
  public var name: String
  /// The SHA of its head commit.
  public var sha: String
  /// Whether branch protection is on.
  public var isProtected: Bool

  /// A branch.
  public init(name: String, sha: String, isProtected: Bool = false) {
    self.name = name
    self.sha = sha
    self.isProtected = isProtected
  }
}

/// A commit as the detail screen lists it.
public struct CommitSummary: Codable, Equatable, Sendable {
  /// The full SHA.
  public var sha: String
  /// The first line of the message.
  public var title: String
  /// The author's name as recorded in the commit.
  public var author: String
  /// The author date, as GitHub's ISO 8601 text.
  public var date: String

  /// A commit summary.
  public init(sha: String, title: String, author: String, date: String) {
    self.sha = sha
    self.title = title
    self.author = author
    self.date = date
  }
}
