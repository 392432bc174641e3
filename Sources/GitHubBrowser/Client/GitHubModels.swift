/// A repository as GitHub's REST API returns it (the fields the browser uses).
public struct GitHubRepository: Codable, Equatable, Sendable {
  /// The owner of a repository.
  public struct Owner: Codable, Equatable, Sendable {
    /// The owner's login.
    public var login: String
  }

  /// GitHub's numeric id.
  public var id: Int
  /// The name.
  public var name: String
  /// `owner/name`.
  public var fullName: String
  /// The owner.
  public var owner: Owner
  /// Whether it is private.
  public var isPrivate: Bool
  /// The description.
  public var description: String?
  /// The main language.
  public var language: String?
  /// The star count.
  public var stargazersCount: Int
  /// The fork count.
  public var forksCount: Int
  /// The default branch.
  public var defaultBranch: String
  /// The last update, ISO 8601.
  public var updatedAt: String

  enum CodingKeys: String, CodingKey {
    case id, name, owner, description, language
    case fullName = "full_name"
    case isPrivate = "private"
    case stargazersCount = "stargazers_count"
    case forksCount = "forks_count"
    case defaultBranch = "default_branch"
    case updatedAt = "updated_at"
  }

  /// The repository as the shared state lists it.
  public var summary: RepositorySummary {
    RepositorySummary(
      id: id, owner: owner.login, name: name, description: description, language: language,
      stars: stargazersCount, forks: forksCount, isPrivate: isPrivate,
      defaultBranch: defaultBranch, updatedAt: updatedAt)
  }
}

/// A user as `GET /user` returns it.
public struct GitHubUser: Codable, Equatable, Sendable {
  /// The login.
  public var login: String
  /// GitHub's numeric id.
  public var id: Int
  /// The display name, if set.
  public var name: String?
}

/// A branch as `GET /repos/{owner}/{repo}/branches` returns it.
public struct GitHubBranch: Codable, Equatable, Sendable {
  /// The commit a branch points to.
  public struct Commit: Codable, Equatable, Sendable {
    /// Its SHA.
    public var sha: String
  }

  /// The name.
  public var name: String
  /// The head commit.
  public var commit: Commit
  /// Whether branch protection is on.
  public var protected: Bool

  /// The branch as the shared state records it.
  public var branch: Branch { Branch(name: name, sha: commit.sha, isProtected: protected) }
}

/// A commit as `GET /repos/{owner}/{repo}/commits` returns it.
public struct GitHubCommit: Codable, Equatable, Sendable {
  /// The git commit inside GitHub's wrapper.
  public struct Details: Codable, Equatable, Sendable {
    /// The author or committer signature.
    public struct Signature: Codable, Equatable, Sendable {
      /// The recorded name.
      public var name: String
      /// The recorded date, ISO 8601.
      public var date: String
    }

    /// The whole message.
    public var message: String
    /// The author.
    public var author: Signature
  }

  /// The SHA.
  public var sha: String
  /// The git commit.
  public var commit: Details

  /// The commit as the shared state lists it (first line of the message).
  public var summary: CommitSummary {
    let title = commit.message.split(separator: "\n", omittingEmptySubsequences: false).first
    return CommitSummary(
      sha: sha, title: title.map(String.init) ?? "", author: commit.author.name,
      date: commit.author.date)
  }
}

/// A file's content as the contents and README endpoints return it.
struct GitHubContent: Codable, Sendable {
  var content: String?
  var encoding: String?
}

/// GitHub's error body: `{"message": ..., "documentation_url": ...}`.
struct GitHubErrorBody: Codable, Sendable {
  var message: String
}
