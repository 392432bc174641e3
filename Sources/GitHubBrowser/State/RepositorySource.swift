/// Whose repositories a list shows: the signed-in user's own, or any owner's public ones.
public enum RepositorySource: Codable, Hashable, Sendable {
  /// The signed-in user's repositories (`GET /user/repos`), private ones included.
  case signedInUser
  /// The public repositories of a user or organization (`GET /users/{owner}/repos`).
  case owner(String)

  /// The key of the list in ``BrowserState/repositoryLists``: `@user`, or the owner's login in
  /// lower case (GitHub logins are case-insensitive).
  public var key: String {
    switch self {
    case .signedInUser: return "@user"
    case .owner(let login): return login.lowercased()
    }
  }
}
