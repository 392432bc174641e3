import Foundation
import MicroHTTP
import Tandem
import TandemSync

/// The web front end's sign-in with GitHub's OAuth web application flow, and who a request's
/// browser is.
///
/// | method and path | answer |
/// |---|---|
/// | `GET /api/auth/signin?next=PATH` | 302 to GitHub's authorize page, with a new `state` also kept in a cookie |
/// | `GET /api/auth/callback?code=C&state=S` | checks `S` against the cookie, exchanges `C` for a token, asks `/user` who it is, keeps the sign-in (``CredentialStore``), sets the sign-in cookie and goes to `PATH` |
/// | `POST /api/auth/signout` | forgets the sign-in and its token, clears the cookie, goes to `/` |
///
/// A callback with GitHub's `error` (the user denied the app), with a `state` that is not this
/// browser's, or with a code GitHub refuses (reused, expired) gets a page saying so with a link
/// to start again; nothing is kept. The code and the token appear in no log line and no page.
struct SignInRoutes: Sendable {
  /// The OAuth app; `nil` when the service runs on its own token (no sign-in).
  let oauth: OAuthConfiguration?
  let credentials: CredentialStore?
  private let log = TandemLogger(label: "github-web.sign-in")

  /// The cookie holding the sign-in's id.
  static let signInCookie = "tandem_signin"
  /// The cookie holding the pending sign-in's `state` and where to go after it.
  static let stateCookie = "tandem_oauth"
  /// How long a sign-in lasts in the browser: 30 days.
  static let signInLifetime = 30 * 24 * 3600

  init(oauth: OAuthConfiguration?, credentials: CredentialStore?) {
    precondition(
      oauth == nil || credentials != nil, "SignInRoutes: OAuth sign-in needs a CredentialStore")
    self.oauth = oauth
    self.credentials = credentials
  }

  /// Who the browser that sent `request` is.
  func viewer(of request: HTTPRequest) -> BrowserView.Viewer {
    guard oauth != nil, let credentials else { return .service }
    guard let id = Self.cookie(Self.signInCookie, in: request),
      let signIn = credentials.signIn(id)
    else { return .signedOut }
    return .user(login: signIn.login, name: signIn.name)
  }

  func register(on router: inout Router) {
    router.get("/api/auth/signin") { request in self.start(request) }
    router.get("/api/auth/callback") { request in await self.callback(request) }
    router.post("/api/auth/signout") { request in self.signOut(request) }
  }

  /// Sends the browser to GitHub's authorize page with a fresh `state`.
  private func start(_ request: HTTPRequest) -> HTTPResponse {
    guard let oauth else { return Self.notConfigured() }
    let state = CredentialStore.newID()
    let next = Self.safeNext(request.query["next"])
    var base = oauth.webBaseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    var authorize = URLComponents(string: base + "/login/oauth/authorize")!
    authorize.queryItems = [
      URLQueryItem(name: "client_id", value: oauth.clientID),
      URLQueryItem(name: "redirect_uri", value: callbackURL(for: request)),
      URLQueryItem(name: "scope", value: oauth.scope),
      URLQueryItem(name: "state", value: state),
    ]
    var response = Self.redirect(to: authorize.url!.absoluteString)
    response.headers.add(
      "Set-Cookie",
      Self.cookieHeader(
        Self.stateCookie, value: state + "." + Self.encodeNext(next), maxAge: 600))
    return response
  }

  /// The browser is back from GitHub: checks `state`, exchanges the code, keeps the sign-in.
  private func callback(_ request: HTTPRequest) async -> HTTPResponse {
    guard let oauth, let credentials else { return Self.notConfigured() }
    let pending = Self.cookie(Self.stateCookie, in: request)?.split(separator: ".")
    let expected = pending?.first.map(String.init)
    let next = pending.flatMap { $0.count == 2 ? Self.decodeNext(String($0[1])) : nil } ?? "/"
    guard let expected, let state = request.query["state"], state == expected else {
      log.info("sign-in refused: its state is not the one this browser started with")
      return failure(
        400, "This sign-in could not be checked",
        "It did not start in this browser, it was started again meanwhile, or it took longer"
          + " than ten minutes. Nothing was kept.")
    }
    if let error = request.query["error"] {
      log.info("sign-in not granted at GitHub: \(error.prefix(64))")
      let denied = error == "access_denied"
      return failure(
        denied ? 403 : 400, denied ? "Sign-in cancelled" : "GitHub did not sign you in",
        denied
          ? "You did not authorize the app at GitHub, so you are not signed in."
          : "GitHub answered “\(request.query["error_description"] ?? error)”.")
    }
    guard let code = request.query["code"], !code.isEmpty else {
      return failure(400, "GitHub did not sign you in", "GitHub sent no code back.")
    }
    let token: String
    do {
      token = try await OAuthTokenExchange.token(
        for: code, redirectURI: callbackURL(for: request), configuration: oauth)
    } catch {
      log.info("sign-in code refused: \(error.code)")
      return failure(
        400, "GitHub did not sign you in",
        "GitHub refused the sign-in’s code (\(error.code): \(error.message)). A code works"
          + " once and for ten minutes: start again.")
    }
    let user: GitHubUser
    do {
      let client = GitHubClient(
        configuration: .init(baseURL: oauth.apiBaseURL, token: token, maximumRetries: 1))
      user = try await client.authenticatedUser()
    } catch {
      log.error("signed-in user unknown: GET /user failed: \(error)")
      return failure(
        502, "GitHub did not say who you are",
        "The sign-in worked, but GitHub’s answer to “who is this” failed; try again in a moment.")
    }
    let id: String
    do {
      id = try credentials.save(login: user.login, name: user.name, token: token)
    } catch {
      log.error("cannot keep a sign-in: \(error)")
      return failure(
        500, "The service cannot keep your sign-in",
        "The service could not write its sign-in file; its operator has the details in its log.")
    }
    log.info("signed in: \(user.login)")
    var response = Self.redirect(to: next)
    response.headers.add(
      "Set-Cookie", Self.cookieHeader(Self.signInCookie, value: id, maxAge: Self.signInLifetime))
    response.headers.add("Set-Cookie", Self.cookieHeader(Self.stateCookie, value: "", maxAge: 0))
    return response
  }

  /// Forgets the browser's sign-in and its token.
  private func signOut(_ request: HTTPRequest) -> HTTPResponse {
    if let id = Self.cookie(Self.signInCookie, in: request) {
      if let signIn = credentials?.signIn(id) { log.info("signed out: \(signIn.login)") }
      credentials?.remove(id)
    }
    var response = Self.redirect(to: "/", status: 303)
    response.headers.add("Set-Cookie", Self.cookieHeader(Self.signInCookie, value: "", maxAge: 0))
    return response
  }

  /// Where GitHub sends the browser back to.
  private func callbackURL(for request: HTTPRequest) -> String {
    if let url = oauth?.callbackURL { return url.absoluteString }
    return "http://\(request.headers["Host"] ?? "127.0.0.1")/api/auth/callback"
  }

  private func failure(_ status: Int, _ title: String, _ text: String) -> HTTPResponse {
    var response = WebRoutes.document(
      WebPage.messageHTML(
        title: title, text: text, link: ("/api/auth/signin", "Sign in with GitHub again")),
      status: status, type: "text/html; charset=utf-8")
    response.headers.add("Set-Cookie", Self.cookieHeader(Self.stateCookie, value: "", maxAge: 0))
    return response
  }

  private static func notConfigured() -> HTTPResponse {
    WebRoutes.document(
      WebPage.messageHTML(
        title: "Sign-in is not configured",
        text: "This service uses its own GitHub token for everyone.", link: ("/", "Go on")),
      status: 404, type: "text/html; charset=utf-8")
  }

  static func redirect(to location: String, status: Int = 302) -> HTTPResponse {
    var response = HTTPResponse(status: status, headers: ["Location": location])
    response.headers["Cache-Control"] = "no-store"
    return response
  }

  /// A `Set-Cookie` value: `HttpOnly` (no script reads it), `SameSite=Lax` (sent on the
  /// top-level navigation back from GitHub, never on another site's requests).
  static func cookieHeader(_ name: String, value: String, maxAge: Int) -> String {
    "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax"
  }

  /// The value of cookie `name` in `request`'s `Cookie` headers.
  static func cookie(_ name: String, in request: HTTPRequest) -> String? {
    for header in request.headers.values(for: "Cookie") {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
          let value = parts[1].trimmingCharacters(in: .whitespaces)
          return value.isEmpty ? nil : value
        }
      }
    }
    return nil
  }

  /// A path of this front end to go to after signing in: `/` unless `next` names a screen.
  static func safeNext(_ next: String?) -> String {
    guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), Route.Screen(path: next) != nil
    else { return "/" }
    return next
  }

  private static func encodeNext(_ next: String) -> String {
    Data(next.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  }

  private static func decodeNext(_ text: String) -> String? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64) else { return nil }
    return safeNext(String(decoding: data, as: UTF8.self))
  }
}
