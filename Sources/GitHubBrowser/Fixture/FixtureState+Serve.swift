import Foundation
import MicroHTTP

extension FixtureState {
  /// Answers one request: 401 for the refused token, the special owners' behaviour, then the
  /// endpoint, then the common headers (`ETag`, rate limit) and 304 for a matching
  /// `If-None-Match`.
  func serve(
    _ request: HTTPRequest, _ endpoint: @Sendable (FixtureRequest) throws -> FixtureAnswer
  ) async throws -> HTTPResponse {
    let number = record(request.path)
    let owner = (request.pathParameters["owner"] ?? "").lowercased()
    let authorization = request.headers["Authorization"]
    let refused = authorization?.hasSuffix(" " + FixtureAPI.refusedToken) == true
    let signedIn = authorization != nil && !refused
    let limit = signedIn ? 5000 : 60
    let reset = startedAt + 3600
    var headers: HTTPHeaders = [
      "x-ratelimit-limit": "\(limit)",
      "x-ratelimit-remaining": "\(max(0, limit - number))",
      "x-ratelimit-reset": "\(reset)",
      "x-ratelimit-resource": "core",
    ]

    if refused { return failure(401, "Bad credentials", headers) }
    if let refusal = refusal(for: owner, headers) { return refusal }
    switch owner {
    case "slowpoke":
      try await Task.sleep(for: configuration.slowDelay)
    case "flaky" where number <= configuration.flakyFailures:
      return failure(502, "Server Error", headers)
    default:
      break
    }

    let host = request.headers["Host"] ?? "127.0.0.1"
    let answer: FixtureAnswer
    do {
      let token = authorization?.split(separator: " ", maxSplits: 1).last.map(String.init)
      let viewer = signedIn ? token.map(login(forToken:)) : nil
      answer = try endpoint(
        FixtureRequest(request: request, data: data, base: "http://\(host)", viewer: viewer))
    } catch FixtureFailure.status(let status, let message) {
      return failure(status, message, headers)
    }
    for (name, value) in answer.headers { headers[name] = value }
    let etag =
      "W/\"\(FixtureData.sha(of: String(decoding: answer.body, as: UTF8.self)).prefix(32))\""
    headers["ETag"] = etag
    headers["Cache-Control"] = signedIn ? "private, max-age=60, s-maxage=60" : "public, max-age=60"
    if let match = request.headers["If-None-Match"],
      match == "*"
        || match.split(separator: ",").contains(where: {
          $0.trimmingCharacters(in: .whitespaces) == etag
        })
    {
      return HTTPResponse(status: 304, headers: headers)
    }
    headers["Content-Type"] = answer.contentType
    return HTTPResponse(status: answer.status, headers: headers, body: Array(answer.body))
  }

  /// The refusals of the owners that stand for rate limits, in each shape GitHub sends them,
  /// for a 403 that is not one, and for a 451 with a long message; `nil` for the other owners.
  private func refusal(for owner: String, _ headers: HTTPHeaders) -> HTTPResponse? {
    var headers = headers
    let now = Int64(Date().timeIntervalSince1970)
    let secondary =
      "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
    switch owner {
    case "rate-limited":
      headers["x-ratelimit-remaining"] = "0"
      headers["x-ratelimit-reset"] = "\(now + 60)"
      return failure(403, "API rate limit exceeded for 127.0.0.1.", headers)
    case "throttled":
      headers["retry-after"] = "30"
      return failure(429, secondary, headers)
    case "throttled-until":
      headers["retry-after"] = RateLimitHeaders.httpDateFormatter().string(
        from: Date(timeIntervalSince1970: Double(now + 90)))
      return failure(429, secondary, headers)
    case "secondary-limited":
      return failure(403, secondary, headers)
    case "overflowing":
      headers["x-ratelimit-remaining"] = "0"
      headers["x-ratelimit-reset"] = "\(Int64.max)"
      headers["retry-after"] = "\(Int64.max)"
      return failure(403, "API rate limit exceeded for 127.0.0.1.", headers)
    case "forbidden":
      return failure(403, "Resource not accessible by personal access token", headers)
    case "blocked":
      return failure(451, FixtureData.blockedMessage, headers)
    default:
      return nil
    }
  }

  private func failure(_ status: Int, _ message: String, _ headers: HTTPHeaders) -> HTTPResponse {
    var headers = headers
    headers["Content-Type"] = "application/json; charset=utf-8"
    return HTTPResponse(status: status, headers: headers, body: Array(FixtureJSON.error(message)))
  }
}
