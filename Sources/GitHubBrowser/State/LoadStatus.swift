/// Where loading a piece of the state stands.
public enum LoadStatus: Codable, Equatable, Sendable {
  /// Never requested.
  case idle
  /// Requested and not answered yet.
  case loading
  /// Loaded.
  case loaded
  /// The last attempt failed.
  case failed(LoadFailure)
}

/// Why a load failed, as the state records it (no tokens, no raw bodies).
public struct LoadFailure: Codable, Equatable, Sendable {
  /// The kinds of failure a user is shown differently.
  public enum Kind: String, Codable, Sendable {
    /// GitHub's rate limit was reached; see ``LoadFailure/retryAt``.
    case rateLimited
    /// The owner or repository does not exist (or is not visible with this token).
    case notFound
    /// The token is missing, wrong or lacks the rights.
    case unauthorized
    /// The request timed out.
    case timedOut
    /// The network failed.
    case network
    /// GitHub answered with an unexpected status or body.
    case server
    /// Not requested: ``BrowserState/maximumPendingLoads`` loads were pending already. The
    /// next navigation to the data, or a retry, requests it again.
    case queueFull
    /// Not requested: the session that asked had ``BrowserState/maximumPendingLoadsPerSession``
    /// loads pending already. The next navigation to the data, or a retry, requests it again.
    case sessionQueueFull
    /// The load's user has signed out of every browser: no token is left to load it with.
    case signedOut
  }

  /// The kind.
  public var kind: Kind
  /// A sentence for the user.
  public var message: String
  /// For a rate limit: when requests may resume, in seconds since 1970.
  public var retryAt: Int64?
  /// The HTTP status GitHub answered, when it answered one that is not a success (such as 451
  /// for a repository blocked for legal reasons): the page offers no retry for a 4xx.
  public var status: Int?

  /// A failure.
  public init(kind: Kind, message: String, retryAt: Int64? = nil, status: Int? = nil) {
    self.kind = kind
    self.message = message
    self.retryAt = retryAt
    self.status = status
  }
}
