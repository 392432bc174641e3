/// Who the service talks to GitHub as. The token itself never enters the state.
public enum Identity: Codable, Equatable, Sendable {
  /// Not known yet: no worker has reported.
  case unknown
  /// No token: public data only, at the anonymous rate limit.
  case anonymous
  /// Signed in with the worker's token as this user.
  case signedIn(login: String, name: String?)
  /// GitHub refused the worker's token: 401 (such as "Bad credentials" for a revoked or mistyped
  /// token) or a 403 that is not a rate limit, with GitHub's message. The worker does not ask
  /// again; a worker started with another token reports anew.
  case tokenRefused(status: Int, message: String)
}
