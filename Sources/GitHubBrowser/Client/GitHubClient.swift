import Synchronization

#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

/// A client for the parts of GitHub's REST API the browser uses, over URLSession.
///
/// Every `GET` is conditional: a response with an `ETag` is cached, the next request for the
/// same URL sends `If-None-Match`, and a 304 reuses the cached body. Rate limits, primary and
/// secondary (429, or 403 with `x-ratelimit-remaining: 0`, a `retry-after` or a message about a
/// secondary rate limit), throw ``GitHubError/rateLimited(_:)`` with the time to retry; until
/// that time the client refuses further requests itself, without sending them
/// (``Configuration/respectsRateLimit``). Server errors (5xx), timeouts and network failures are
/// retried with a doubling back-off; other 4xx never are.
///
/// ```swift
/// let client = GitHubClient(configuration: .init(token: environmentToken))
/// let page = try await client.repositories(of: .owner("swiftlang"), page: 1)
/// print(page.items.map(\.name), "next:", page.nextPage ?? 0)
/// ```
public final class GitHubClient: Sendable {
  /// The configuration the client was made with.
  public let configuration: Configuration
  private let session: URLSession
  private let cache: ETagCache
  private let limits = Mutex(Limits())

  private struct Limits {
    var latest: RateLimitStatus?
    var blocked: RateLimitRejection?
    var sent = 0
  }

  /// A client with its own URLSession (URLSession's own cache off: the client does ETags).
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.urlCache = nil
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    sessionConfiguration.timeoutIntervalForRequest = max(1, configuration.timeout)
    session = URLSession(configuration: sessionConfiguration)
    cache = ETagCache(capacity: configuration.cacheCapacity)
  }

  deinit {
    session.invalidateAndCancel()
  }

  /// How many requests were answered 304 and served from the ETag cache.
  public var cacheHits: Int { cache.hits }

  /// How many requests the client has sent, retries included (refused ones are not sent).
  public var requestsSent: Int { limits.withLock { $0.sent } }

  /// The rate limit GitHub reported with the most recent response, if it sent one.
  public var rateLimit: RateLimitStatus? { limits.withLock { $0.latest } }

  /// `GET path` (relative to the base URL) with `query`, retried as described above.
  public func get(
    _ path: String, query: [URLQueryItem] = [], accept: String = "application/vnd.github+json"
  ) async throws(GitHubError) -> GitHubResponse {
    var attempt = 0
    while true {
      do {
        return try await getOnce(path, query: query, accept: accept)
      } catch {
        guard error.isRetryable, attempt < configuration.maximumRetries else { throw error }
        let delay = configuration.retryDelay * (1 << attempt)
        attempt += 1
        do { try await Task.sleep(for: delay) } catch { throw .cancelled }
      }
    }
  }

  private func getOnce(
    _ path: String, query: [URLQueryItem], accept: String
  ) async throws(GitHubError) -> GitHubResponse {
    if configuration.respectsRateLimit, let blocked = currentBlock() {
      throw .rateLimited(blocked)
    }
    let url = makeURL(path, query: query)
    var request = URLRequest(url: url, timeoutInterval: max(1, configuration.timeout))
    request.setValue(accept, forHTTPHeaderField: "Accept")
    request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
    request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
    if let token = configuration.token {
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
    let key = accept + " " + url.absoluteString
    let cached = cache.entry(for: key)
    if let cached { request.setValue(cached.etag, forHTTPHeaderField: "If-None-Match") }

    let data: Data
    let http: HTTPURLResponse
    limits.withLock { $0.sent += 1 }
    do {
      let (body, response) = try await session.data(for: request)
      guard let response = response as? HTTPURLResponse else {
        throw GitHubError.invalidResponse(path: path, reason: "not an HTTP response")
      }
      data = body
      http = response
    } catch let error as GitHubError {
      throw error
    } catch let error as URLError {
      if Task.isCancelled || error.code == .cancelled { throw .cancelled }
      if error.code == .timedOut { throw .timedOut(path: path) }
      throw .network(path: path, error)
    } catch {
      if Task.isCancelled { throw .cancelled }
      throw .network(path: path, URLError(.unknown))
    }

    let rateLimit = Self.rateLimit(of: http)
    if let rateLimit { limits.withLock { $0.latest = rateLimit } }
    switch http.statusCode {
    case 304:
      guard let cached else {
        throw .invalidResponse(path: path, reason: "304 without a cached response")
      }
      cache.recordHit()
      return GitHubResponse(
        body: cached.body, contentType: cached.contentType, link: cached.link,
        etag: cached.etag, fromCache: true, rateLimit: rateLimit)
    case 200..<300:
      let response = GitHubResponse(
        body: data, contentType: http.value(forHTTPHeaderField: "Content-Type"),
        link: http.value(forHTTPHeaderField: "Link"),
        etag: http.value(forHTTPHeaderField: "ETag"), fromCache: false, rateLimit: rateLimit)
      if let etag = response.etag {
        cache.store(
          ETagCache.Entry(
            etag: etag, body: data, contentType: response.contentType, link: response.link),
          for: key)
      }
      return response
    default:
      let error = Self.error(for: http, body: data, path: path)
      if case .rateLimited(let rejection) = error {
        limits.withLock { $0.blocked = rejection }
      }
      throw error
    }
  }

  /// The rate limit rejection still in force, if any (cleared once its time has passed).
  private func currentBlock() -> RateLimitRejection? {
    let now = Int64(Date().timeIntervalSince1970)
    return limits.withLock { limits in
      guard let blocked = limits.blocked else { return nil }
      if blocked.retryAt <= now {
        limits.blocked = nil
        return nil
      }
      return blocked
    }
  }

  private func makeURL(_ path: String, query: [URLQueryItem]) -> URL {
    var base = configuration.baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    var components = URLComponents(string: base + (path.hasPrefix("/") ? path : "/" + path))!
    if !query.isEmpty { components.queryItems = query }
    return components.url!
  }

  private static func rateLimit(of response: HTTPURLResponse) -> RateLimitStatus? {
    guard let limit = response.value(forHTTPHeaderField: "x-ratelimit-limit").flatMap({ Int($0) }),
      let remaining = response.value(forHTTPHeaderField: "x-ratelimit-remaining").flatMap({
        Int($0)
      }),
      let reset = RateLimitHeaders.resetTime(
        response.value(forHTTPHeaderField: "x-ratelimit-reset"),
        now: Int64(Date().timeIntervalSince1970))
    else { return nil }
    return RateLimitStatus(limit: limit, remaining: remaining, resetAt: reset)
  }

  /// The error for a status outside 2xx and 304. A rate limit is a 429, or a 403 with
  /// `x-ratelimit-remaining: 0`, a `retry-after` or a message about a secondary rate limit
  /// (GitHub sends secondary limits without the other two at times); it resumes after
  /// `retry-after`, else at `x-ratelimit-reset` when no requests remain, else a minute later.
  private static func error(for response: HTTPURLResponse, body: Data, path: String) -> GitHubError
  {
    let status = response.statusCode
    let message =
      (try? JSONDecoder().decode(GitHubErrorBody.self, from: body))?.message
      ?? HTTPURLResponse.localizedString(forStatusCode: status)
    let received = Date()
    let receivedAt = Int64(received.timeIntervalSince1970)
    let exhausted = response.value(forHTTPHeaderField: "x-ratelimit-remaining") == "0"
    let retryAfter = RateLimitHeaders.retryAfter(
      response.value(forHTTPHeaderField: "retry-after"), now: received)
    let secondary = message.localizedCaseInsensitiveContains("secondary rate limit")
    if status == 429 || (status == 403 && (exhausted || retryAfter != nil || secondary)) {
      let reset = RateLimitHeaders.resetTime(
        response.value(forHTTPHeaderField: "x-ratelimit-reset"), now: receivedAt)
      return .rateLimited(
        RateLimitRejection(
          status: status, message: message, resetAt: exhausted ? reset : nil,
          retryAfter: retryAfter, receivedAt: receivedAt))
    }
    switch status {
    case 404: return .notFound(path: path)
    case 401, 403: return .unauthorized(status: status, message: message)
    default: return .httpStatus(status, path: path, message: message)
    }
  }
}
