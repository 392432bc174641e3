import Foundation
import MicroHTTP
import Synchronization

/// A local stand-in for GitHub's REST API, serving recorded GitHub-shaped JSON over
/// MicroHTTP's `HTTPServer`, for the demo and the tests (the machines that run them have no
/// GitHub access).
///
/// It serves `GET /user`, `/user/repos`, `/users/{owner}/repos`, `/repos/{owner}/{repo}` and its
/// `/readme`, `/branches` and `/commits`, with `Link` pagination (`per_page`, `page`), an `ETag`
/// on every answer and 304 for a matching `If-None-Match`, and `x-ratelimit-*` headers. Special
/// owners exercise the failure paths:
///
/// | owner | answer |
/// |---|---|
/// | `rate-limited` | 403, `x-ratelimit-remaining: 0` and `x-ratelimit-reset` a minute ahead |
/// | `throttled` | 429 with `retry-after: 30` |
/// | `throttled-until` | 429 with `retry-after` an HTTP date 90 seconds ahead |
/// | `secondary-limited` | 403 saying "secondary rate limit", without `retry-after` |
/// | `overflowing` | 403, none remaining, `x-ratelimit-reset` and `retry-after` `Int64.max` |
/// | `forbidden` | 403 "Resource not accessible by personal access token" (not a rate limit) |
/// | `blocked` | 451 "Repository access blocked", with a message of 4 KiB |
/// | `slowpoke` | the normal answer after ``Configuration/slowDelay`` |
/// | `flaky` | 502 for the first ``Configuration/flakyFailures`` requests of each path |
///
/// A request with the token ``refusedToken`` gets 401 "Bad credentials" on every path, as GitHub
/// answers a revoked or mistyped token; a token from the fixture's OAuth flow signs in as the
/// user it was issued for, and any other bearer token as `ada`. A private repository is seen
/// only by its owner.
///
/// The fixture also plays GitHub's OAuth web flow for one app (client id and secret in
/// ``Configuration``): `GET /login/oauth/authorize` is a sign-in page listing
/// ``signInLogins`` and a "Cancel" link, and `POST /login/oauth/access_token` exchanges a code
/// once, within ten minutes, answering as GitHub does (`bad_verification_code` for a reused or
/// unknown code, `incorrect_client_credentials`, `redirect_uri_mismatch`).
///
/// The owner `newcomer` has one empty repository (`garnet-ui`, no commit yet), answered as GitHub
/// answers for one: its README is 404 "This repository is empty.", its branches `[]` and its
/// commits 409 "Git Repository is empty.".
///
/// The owner `mallory` has one repository whose README tries to run a script in the page that
/// shows it (``FixtureData/hostileReadme``): `<script>`, `<img onerror=...>` and a
/// `javascript:` link.
///
/// The owner `prolix` has one repository whose README (160 KiB) is longer than the browser's
/// state keeps (``BrowserState/maximumReadmeBytes``), and so are its description, its language,
/// and its commits' first lines and author names (``TextBound``), each with a character of
/// several bytes across its bound. The owner `long-names` has two repositories with names
/// longer than GitHub allows (``NameBound``): a branch name of 314 bytes in the first, and the
/// second's name of 116.
///
/// ```swift
/// let fixture = try FixtureAPI()
/// let client = GitHubClient(configuration: .init(baseURL: fixture.url))
/// let page = try await client.repositories(of: .owner("octo-org"), page: 1)
/// ```
public final class FixtureAPI: Sendable {
  /// How the fixture server listens and misbehaves.
  public struct Configuration: Sendable {
    /// Where to listen (default `127.0.0.1`, any free port).
    public var server: HTTPServer.Configuration
    /// How long `slowpoke`'s paths wait before answering.
    public var slowDelay: Duration
    /// How many times each of `flaky`'s paths answers 502 before it succeeds.
    public var flakyFailures: Int
    /// The client id of the fixture's one OAuth app.
    public var oauthClientID: String
    /// The client secret of the fixture's one OAuth app.
    public var oauthClientSecret: String

    /// A configuration; every parameter has the default described on its property.
    public init(
      server: HTTPServer.Configuration = HTTPServer.Configuration(),
      slowDelay: Duration = .seconds(3), flakyFailures: Int = 2,
      oauthClientID: String = "fixture-client-id",
      oauthClientSecret: String = "fixture-client-secret"
    ) {
      self.server = server
      self.slowDelay = slowDelay
      self.flakyFailures = flakyFailures
      self.oauthClientID = oauthClientID
      self.oauthClientSecret = oauthClientSecret
    }
  }

  /// The token the fixture refuses, with 401 "Bad credentials" on every path.
  public static let refusedToken = "fixture-refused-token"

  /// The users its sign-in page offers: `ada` (12 repositories, one private), `grace` (4, one
  /// private) and `newcomer` (one empty repository).
  public static let signInLogins = ["ada", "grace", "newcomer"]

  /// The server answering the requests.
  public let server: HTTPServer
  let state: FixtureState

  /// Starts the fixture server.
  public init(configuration: Configuration = Configuration()) throws(HTTPServerError) {
    let state = FixtureState(configuration: configuration)
    self.state = state
    server = try HTTPServer(configuration: configuration.server, router: state.router())
  }

  /// The base URL to give a ``GitHubClient``, such as `http://127.0.0.1:40123`.
  public var url: URL { URL(string: server.url)! }

  /// How many requests arrived for `path` (without the query), 304s and failures included.
  public func requestCount(_ path: String) -> Int {
    state.count(of: path)
  }

  /// Stops the server.
  public func stop() {
    server.stop()
  }
}

/// The fixture's data and its per-path request counts.
final class FixtureState: Sendable {
  let configuration: FixtureAPI.Configuration
  let data = FixtureData.standard
  let startedAt = Int64(Date().timeIntervalSince1970)
  private let counts = Mutex<[String: Int]>([:])
  let oauth = Mutex(FixtureOAuthBook())

  init(configuration: FixtureAPI.Configuration) {
    self.configuration = configuration
  }

  /// Counts a request for `path` and returns how many there were, this one included.
  func record(_ path: String) -> Int {
    counts.withLock { counts in
      counts[path, default: 0] += 1
      return counts[path]!
    }
  }

  func count(of path: String) -> Int {
    counts.withLock { $0[path] ?? 0 }
  }

  func router() -> Router {
    var router = Router()
    let answer:
      @Sendable (HTTPRequest, @Sendable (FixtureRequest) throws -> FixtureAnswer)
        async throws -> HTTPResponse = { [self] request, body in
          try await self.serve(request, body)
        }
    router.get("/user") { request in try await answer(request) { try $0.user() } }
    router.get("/user/repos") { request in try await answer(request) { try $0.userRepositories() } }
    router.get("/users/:owner/repos") { request in
      try await answer(request) { try $0.ownerRepositories() }
    }
    router.get("/repos/:owner/:repo") { request in try await answer(request) { try $0.repository() }
    }
    router.get("/repos/:owner/:repo/readme") { request in
      try await answer(request) { try $0.readme() }
    }
    router.get("/repos/:owner/:repo/branches") { request in
      try await answer(request) { try $0.branches() }
    }
    router.get("/repos/:owner/:repo/commits") { request in
      try await answer(request) { try $0.commits() }
    }
    registerOAuth(on: &router)
    return router
  }
}
