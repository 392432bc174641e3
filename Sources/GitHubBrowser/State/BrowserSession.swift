/// One browser client's entry in ``BrowserState/sessions``: where it is, and when it last
/// navigated.
public struct BrowserSession: Codable, Equatable, Sendable {
  /// Where the client is.
  public var route: Route
  /// The number of the client's last navigation (see ``BrowserState/navigations``): of two
  /// sessions, the one with the lower number is the less recently active.
  public var lastNavigation: Int
  /// The account the client is signed in as (see ``BrowserState/accounts``): a GitHub login in
  /// lower case, or `""` for the service's own token.
  public var account: String

  /// A session of `account` at `route` whose last navigation was number `lastNavigation`.
  public init(route: Route, lastNavigation: Int, account: String = "") {
    self.route = route
    self.lastNavigation = lastNavigation
    self.account = account
  }
}
