#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

/// The OAuth web flow's second step: a callback's `code` exchanged for a token at
/// `{webBaseURL}/login/oauth/access_token`, as GitHub documents it (a form `POST` with the
/// app's id and secret, answered as JSON; a refused code is a 200 with an `error`).
enum OAuthTokenExchange {
  /// Why no token came back, in words a user can act on.
  struct Failure: Error {
    /// GitHub's error code (`bad_verification_code`, `incorrect_client_credentials`,
    /// `redirect_uri_mismatch`...), or `unreachable`.
    var code: String
    /// GitHub's description, or what went wrong on the way.
    var message: String
  }

  private struct Answer: Decodable {
    var access_token: String?
    var error: String?
    var error_description: String?
  }

  /// The token for `code`, which GitHub issued for `redirectURI`.
  static func token(
    for code: String, redirectURI: String, configuration: OAuthConfiguration
  ) async throws(Failure) -> String {
    var base = configuration.webBaseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    guard let url = URL(string: base + "/login/oauth/access_token") else {
      throw Failure(code: "unreachable", message: "the sign-in URL \(base) is not a URL")
    }
    var form = URLComponents()
    form.queryItems = [
      URLQueryItem(name: "client_id", value: configuration.clientID),
      URLQueryItem(name: "client_secret", value: configuration.clientSecret),
      URLQueryItem(name: "code", value: code),
      URLQueryItem(name: "redirect_uri", value: redirectURI),
    ]
    var request = URLRequest(url: url, timeoutInterval: 15)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.setValue("tandem-github-browser", forHTTPHeaderField: "User-Agent")
    // `+` in a form value is a space: encode it, which URLComponents leaves alone.
    request.httpBody = Data(
      (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let body: Data
    let status: Int
    do {
      let (data, response) = try await session.data(for: request)
      body = data
      status = (response as? HTTPURLResponse)?.statusCode ?? 0
    } catch {
      throw Failure(
        code: "unreachable", message: "GitHub's sign-in could not be reached (\(url.host ?? base))")
    }
    guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
      throw Failure(
        code: "unreachable", message: "GitHub's sign-in answered \(status) without a token")
    }
    if let token = answer.access_token, !token.isEmpty, answer.error == nil { return token }
    throw Failure(
      code: answer.error ?? "no_token",
      message: answer.error_description ?? "GitHub's sign-in answered without a token")
  }
}
