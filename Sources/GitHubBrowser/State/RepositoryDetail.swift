import TandemSync

/// One repository's screen: its metadata, README, branches and recent commits.
public struct RepositoryDetail: Codable, Equatable, Sendable {
  /// The metadata, once loaded.
  public var summary: RepositorySummary?
  /// The README's text; `nil` when not loaded or when the repository has none. At most
  /// ``BrowserState/maximumReadmeBytes`` of UTF-8: only its beginning when
  /// ``fullReadmeBytes`` is set.
  public var readme: String?
  /// The whole README's size in UTF-8 bytes when ``readme`` holds only its beginning; `nil`
  /// when ``readme`` is all of it, or there is none.
  public var fullReadmeBytes: Int?
  /// The branches (first page).
  public var branches: [Branch] = []
  /// The most recent commits on the default branch, newest first.
  public var commits: [CommitSummary] = []
  /// Where loading stands.
  public var status = LoadStatus.idle

  /// A detail that has not been loaded.
  public init() {}

  /// Cuts ``readme``, if longer than ``BrowserState/maximumReadmeBytes`` bytes of UTF-8, to the
  /// whole characters that fit, and records its whole size in ``fullReadmeBytes``.
  mutating func limitReadme() {
    guard let text = readme, text.utf8.count > BrowserState.maximumReadmeBytes else { return }
    readme = String(text.prefix(maximumUTF8Bytes: BrowserState.maximumReadmeBytes))
    fullReadmeBytes = text.utf8.count
  }
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
