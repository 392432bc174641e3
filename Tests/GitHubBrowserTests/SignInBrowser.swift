import Foundation
import GitHubBrowser

/// A browser for the sign-in tests: keeps the cookies each host sets, and walks GitHub's OAuth
/// web flow through a front end and the fixture, one request at a time.
final class SignInBrowser: @unchecked Sendable {
  /// The cookies by name (one jar: the front ends and the fixture all run on 127.0.0.1).
  var cookies: [String: String] = [:]
  /// Every response body this browser received, to search for what must never show.
  var pages: [String] = []

  /// `GET` (or another method of) `url`, with the cookies; records the cookies it sets.
  func request(
    _ url: URL, method: String = "GET", body: String = ""
  ) async throws -> (
    status: Int, headers: [String: String], body: String
  ) {
    let path = url.path + (url.query.map { "?" + $0 } ?? "")
    let cookie = cookies.isEmpty ? nil : cookies.map { "\($0)=\($1)" }.joined(separator: "; ")
    let answer = try await HTTPTestClient.request(
      port: url.port ?? 80, method: method, path: path, body: body, cookie: cookie)
    for line in (answer.headers["set-cookie"] ?? "").split(separator: "\n") {
      let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
      guard pair.count >= 1 else { continue }
      let name = String(pair[0])
      let value = pair.count == 2 ? String(pair[1]) : ""
      if value.isEmpty || line.contains("Max-Age=0") {
        cookies[name] = nil
      } else {
        cookies[name] = value
      }
    }
    pages.append(answer.body)
    return answer
  }

  /// The `Location` of a redirect, resolved against `base`.
  static func location(_ headers: [String: String], base: URL) throws -> URL {
    guard let location = headers["location"], let url = URL(string: location, relativeTo: base)
    else { throw HTTPTestClient.Failure(description: "no Location in \(headers)") }
    return url.absoluteURL
  }

  /// Starts a sign-in at `frontEnd` and returns the fixture's sign-in page URL.
  func startSignIn(at frontEnd: URL, next: String = "/") async throws -> URL {
    let start = try await request(
      frontEnd.appendingPathComponent("api/auth/signin").appending(
        queryItems: [URLQueryItem(name: "next", value: next)]))
    guard start.status == 302 else {
      throw HTTPTestClient.Failure(description: "sign-in start answered \(start.status)")
    }
    return try Self.location(start.headers, base: frontEnd)
  }

  /// Follows the link with `id` on the fixture's sign-in page at `page`, and returns where the
  /// fixture sends the browser back to (the front end's callback).
  func pick(_ id: String, on page: URL) async throws -> URL {
    let html = try await request(page).body
    guard let start = html.range(of: "id=\"\(id)\" href=\""),
      let end = html[start.upperBound...].firstIndex(of: "\"")
    else { throw HTTPTestClient.Failure(description: "no link \(id) on the sign-in page") }
    let href = html[start.upperBound..<end].replacingOccurrences(of: "&amp;", with: "&")
    let picked = try await request(URL(string: href, relativeTo: page)!.absoluteURL)
    guard picked.status == 302 else {
      throw HTTPTestClient.Failure(description: "the sign-in page answered \(picked.status)")
    }
    return try Self.location(picked.headers, base: page)
  }

  /// Signs in at `frontEnd` as fixture user `login`, all the way.
  func signIn(at frontEnd: URL, as login: String) async throws {
    let page = try await startSignIn(at: frontEnd)
    let callback = try await pick("sign-in-\(login)", on: page)
    let done = try await request(callback)
    guard done.status == 302, cookies["tandem_signin"] != nil else {
      throw HTTPTestClient.Failure(
        description: "the callback answered \(done.status): \(done.body)")
    }
  }

  /// The front end's view of `session` for this browser.
  func view(at frontEnd: URL, session: String) async throws -> BrowserView {
    let answer = try await request(
      frontEnd.appendingPathComponent("api/view").appending(
        queryItems: [URLQueryItem(name: "session", value: session)]))
    return try JSONDecoder().decode(BrowserView.self, from: Data(answer.body.utf8))
  }

  /// Posts a browser action (`{"tag": ..., "payload": ...}`) to `frontEnd`.
  func post(_ body: String, to frontEnd: URL) async throws -> Int {
    try await request(
      frontEnd.appendingPathComponent("api/actions"), method: "POST", body: body
    ).status
  }
}
