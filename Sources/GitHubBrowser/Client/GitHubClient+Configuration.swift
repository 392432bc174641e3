#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

extension GitHubClient {
  /// Where the client sends requests, with what credentials, and how patiently.
  public struct Configuration: Sendable, CustomStringConvertible {
    /// The API root (default `https://api.github.com`); a fixture server's URL in tests.
    public var baseURL: URL
    /// The token sent as `Authorization: Bearer`; `nil` for anonymous requests. Never logged:
    /// ``description`` hides it.
    public var token: String?
    /// The `User-Agent` header, which GitHub requires.
    public var userAgent: String
    /// Seconds to wait for an answer before a request counts as timed out. The client uses at
    /// least one second: swift-corelibs-foundation's URLSession (Linux) expires shorter
    /// timeouts almost at once (measured: 0.5 s expired after 16 ms).
    public var timeout: TimeInterval
    /// How many times a retryable failure (5xx, timeout, network) is tried again.
    public var maximumRetries: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var retryDelay: Duration
    /// Items per page for lists (GitHub allows up to 100).
    public var perPage: Int
    /// How many responses the ETag cache keeps.
    public var cacheCapacity: Int
    /// Whether, after a rate limit, the client fails requests at once (with the same
    /// ``GitHubError/rateLimited(_:)``) until the limit's retry time instead of sending them.
    public var respectsRateLimit: Bool

    /// A configuration; every parameter has the default described on its property.
    public init(
      baseURL: URL = URL(string: "https://api.github.com")!, token: String? = nil,
      userAgent: String = "tandem-github-browser", timeout: TimeInterval = 15,
      maximumRetries: Int = 2, retryDelay: Duration = .milliseconds(250), perPage: Int = 30,
      cacheCapacity: Int = 512, respectsRateLimit: Bool = true
    ) {
      precondition((1...100).contains(perPage), "GitHubClient: perPage must be in 1...100")
      precondition(maximumRetries >= 0, "GitHubClient: negative maximumRetries")
      self.baseURL = baseURL
      self.token = token
      self.userAgent = userAgent
      self.timeout = timeout
      self.maximumRetries = maximumRetries
      self.retryDelay = retryDelay
      self.perPage = perPage
      self.cacheCapacity = cacheCapacity
      self.respectsRateLimit = respectsRateLimit
    }

    /// The settings, with the token shown only as present or absent.
    public var description: String {
      "GitHubClient.Configuration(baseURL: \(baseURL), token: \(token == nil ? "none" : "<hidden>"), "
        + "timeout: \(timeout)s, retries: \(maximumRetries), perPage: \(perPage))"
    }
  }
}
