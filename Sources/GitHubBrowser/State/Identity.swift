/// Who the service talks to GitHub as. The token itself never enters the state.
public enum Identity: Codable, Equatable, Sendable {
  /// Not known yet: no worker has reported.
  case unknown
  /// No token: public data only, at the anonymous rate limit.
  case anonymous
  /// Signed in with the worker's token as this user.
  case signedIn(login: String, name: String?)
}
