import Foundation

/// How a web front end signs users in with GitHub's OAuth web application flow: the OAuth
/// app's client id and secret, and where GitHub's sign-in pages and API are.
///
/// Register an OAuth app on GitHub (Settings → Developer settings → OAuth Apps) with the
/// callback URL `https://YOUR-HOST/api/auth/callback`; the front end sends users to
/// `{webBaseURL}/login/oauth/authorize`, checks the `state` it gets back, and exchanges the
/// code at `{webBaseURL}/login/oauth/access_token`. Against the fixture API both base URLs are
/// the fixture's, and its client id and secret are ``FixtureAPI/Configuration/oauthClientID``
/// and ``FixtureAPI/Configuration/oauthClientSecret``.
public struct OAuthConfiguration: Sendable, CustomStringConvertible {
  /// The OAuth app's client id.
  public var clientID: String
  /// The OAuth app's client secret; ``description`` hides it.
  public var clientSecret: String
  /// Where GitHub's sign-in pages are (default `https://github.com`).
  public var webBaseURL: URL
  /// Where GitHub's API is (default `https://api.github.com`): the front end asks `/user` who
  /// signed in.
  public var apiBaseURL: URL
  /// The scopes asked for (default `repo`, which private repositories need).
  public var scope: String
  /// The callback URL GitHub sends the browser back to; `nil` (the default) builds it from the
  /// request's `Host` header as `http://HOST/api/auth/callback`. Set it to the URL registered with
  /// the OAuth app when the front end runs behind a proxy or on HTTPS.
  public var callbackURL: URL?

  /// A configuration; every parameter but the app's id and secret has the default described on
  /// its property.
  public init(
    clientID: String, clientSecret: String,
    webBaseURL: URL = URL(string: "https://github.com")!,
    apiBaseURL: URL = URL(string: "https://api.github.com")!, scope: String = "repo",
    callbackURL: URL? = nil
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.webBaseURL = webBaseURL
    self.apiBaseURL = apiBaseURL
    self.scope = scope
    self.callbackURL = callbackURL
  }

  /// The settings, without the secret.
  public var description: String {
    "OAuthConfiguration(clientID: \(clientID), clientSecret: <hidden>, web: \(webBaseURL), "
      + "api: \(apiBaseURL), scope: \(scope))"
  }
}
