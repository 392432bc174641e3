import Foundation
import MicroHTTP
import Synchronization

/// The codes and tokens the fixture's OAuth endpoints issued.
struct FixtureOAuthBook {
  struct Grant {
    var login: String
    var redirectURI: String
    var issuedAt: Date
    var used = false
  }

  var grants: [String: Grant] = [:]
  var tokens: [String: String] = [:]
}

extension FixtureState {
  /// How long a code can be exchanged, as on GitHub: ten minutes.
  static let codeLifetime: TimeInterval = 600

  /// GitHub's OAuth web flow, for the fixture's users (``FixtureAPI/signInLogins``):
  /// `GET /login/oauth/authorize` shows a page to pick a user (or deny the app), which sends
  /// the browser to the `redirect_uri` with a `code` and the `state` (or with
  /// `error=access_denied`); `POST /login/oauth/access_token` exchanges a code, once, within
  /// ten minutes, for a token that signs in as that user.
  func registerOAuth(on router: inout Router) {
    router.get("/login/oauth/authorize") { request in self.authorizePage(request) }
    router.get("/login/oauth/authorize/grant") { request in self.grant(request) }
    router.get("/login/oauth/authorize/deny") { request in
      self.redirectBack(
        request,
        with: [
          ("error", "access_denied"),
          ("error_description", "The user has denied your application access."),
        ])
    }
    router.post("/login/oauth/access_token") { request in self.exchange(request) }
  }

  /// The login a bearer token signs in as: the user a code was exchanged for, or
  /// ``FixtureData/signedInLogin`` for any other token. The fixture's tokens name their user
  /// (`gho_fixture_LOGIN_RANDOM`), so one issued before the fixture restarted still signs in
  /// as that user, as a GitHub token outlives a restart of anything.
  func login(forToken token: String) -> String {
    if let login = oauth.withLock({ $0.tokens[token] }) { return login }
    let prefix = "gho_fixture_"
    if token.hasPrefix(prefix),
      let login = token.dropFirst(prefix.count).split(separator: "_").first,
      FixtureAPI.signInLogins.contains(String(login))
    {
      return String(login)
    }
    return FixtureData.signedInLogin
  }

  private func authorizePage(_ request: HTTPRequest) -> HTTPResponse {
    guard request.query["client_id"] == configuration.oauthClientID else {
      return page(status: 404, "<h1>404</h1><p>No OAuth app has this client id.</p>")
    }
    guard let redirect = request.query["redirect_uri"], URL(string: redirect)?.scheme != nil else {
      return page(status: 400, "<h1>Bad request</h1><p>The redirect_uri is missing.</p>")
    }
    var carried = URLComponents()
    carried.queryItems = [
      URLQueryItem(name: "redirect_uri", value: redirect),
      URLQueryItem(name: "state", value: request.query["state"] ?? ""),
    ]
    let query = Self.escape(carried.percentEncodedQuery ?? "")
    var html =
      "<h1>Sign in to the fixture GitHub</h1><p>The app asks for <code>"
      + Self.escape(request.query["scope"] ?? "") + "</code>. Pick a fixture user:</p><ul>"
    for login in FixtureAPI.signInLogins {
      let name = data.owner(login)?.name.map { " (\(Self.escape($0)))" } ?? ""
      html +=
        "<li><a id=\"sign-in-\(login)\" href=\"/login/oauth/authorize/grant?login=\(login)&amp;"
        + query + "\">Sign in as <strong>\(login)</strong>\(name)</a></li>"
    }
    html +=
      "</ul><p><a id=\"deny\" href=\"/login/oauth/authorize/deny?" + query
      + "\">Cancel: do not authorize the app</a></p>"
    return page(status: 200, html)
  }

  private func grant(_ request: HTTPRequest) -> HTTPResponse {
    guard let login = request.query["login"], FixtureAPI.signInLogins.contains(login),
      let redirect = request.query["redirect_uri"]
    else { return page(status: 400, "<h1>Bad request</h1><p>No such fixture user.</p>") }
    let code = Self.randomHex(20)
    oauth.withLock {
      $0.grants[code] = FixtureOAuthBook.Grant(
        login: login, redirectURI: redirect, issuedAt: Date())
    }
    return redirectBack(request, with: [("code", code)])
  }

  private func redirectBack(
    _ request: HTTPRequest, with items: [(String, String)]
  )
    -> HTTPResponse
  {
    guard let redirect = request.query["redirect_uri"], var target = URLComponents(string: redirect)
    else { return page(status: 400, "<h1>Bad request</h1><p>The redirect_uri is missing.</p>") }
    target.queryItems =
      (target.queryItems ?? []) + items.map { URLQueryItem(name: $0.0, value: $0.1) }
      + [URLQueryItem(name: "state", value: request.query["state"] ?? "")]
    return HTTPResponse(status: 302, headers: ["Location": target.url?.absoluteString ?? "/"])
  }

  /// The token exchange, answered as GitHub answers it: 200 with JSON either way.
  private func exchange(_ request: HTTPRequest) -> HTTPResponse {
    var parameters = request.query
    var form = URLComponents()
    form.percentEncodedQuery = request.bodyText.replacingOccurrences(of: "+", with: "%20")
    for item in form.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
    func answer(_ fields: [String: String]) -> HTTPResponse {
      let body = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json; charset=utf-8"],
        body: Array(body))
    }
    func refusal(_ error: String, _ description: String) -> HTTPResponse {
      answer(["error": error, "error_description": description])
    }
    guard parameters["client_id"] == configuration.oauthClientID,
      parameters["client_secret"] == configuration.oauthClientSecret
    else {
      return refusal(
        "incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.")
    }
    let code = parameters["code"] ?? ""
    let outcome: Result<String, FixtureFailure> = oauth.withLock { book in
      guard var grant = book.grants[code], !grant.used,
        Date().timeIntervalSince(grant.issuedAt) < Self.codeLifetime
      else {
        return .failure(.status(0, "bad_verification_code"))
      }
      if let redirect = parameters["redirect_uri"], redirect != grant.redirectURI {
        return .failure(.status(0, "redirect_uri_mismatch"))
      }
      grant.used = true
      book.grants[code] = grant
      let token = "gho_fixture_\(grant.login)_" + Self.randomHex(18)
      book.tokens[token] = grant.login
      return .success(token)
    }
    switch outcome {
    case .success(let token):
      return answer(["access_token": token, "token_type": "bearer", "scope": "repo"])
    case .failure(.status(_, "redirect_uri_mismatch")):
      return refusal(
        "redirect_uri_mismatch",
        "The redirect_uri MUST match the registered callback URL for this application.")
    case .failure:
      return refusal("bad_verification_code", "The code passed is incorrect or expired.")
    }
  }

  private func page(status: Int, _ body: String) -> HTTPResponse {
    let html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      + "<title>Fixture GitHub sign-in</title></head><body>" + body + "</body></html>"
    return HTTPResponse(
      status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
      body: Array(html.utf8))
  }

  private static func escape(_ text: String) -> String {
    String(decoding: MarkdownEscape.html(text.utf8), as: UTF8.self)
  }

  static func randomHex(_ bytes: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<bytes).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
  }
}
