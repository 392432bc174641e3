#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

/// Why a GitHub request failed.
public enum GitHubError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A rate limit, primary or secondary: 429, or 403 with a rate limit's headers or message.
  case rateLimited(RateLimitRejection)
  /// 404: no such owner or repository, or not visible with this token.
  case notFound(path: String)
  /// 401, or 403 without a rate limit: the token is missing, wrong or lacks rights.
  case unauthorized(status: Int, message: String)
  /// Any other status outside 2xx and 304; `message` is GitHub's, when it sent one.
  case httpStatus(Int, path: String, message: String)
  /// No answer within the timeout (`URLError.timedOut`), after the retries.
  case timedOut(path: String)
  /// The connection failed (after the retries); keeps URLSession's error.
  case network(path: String, URLError)
  /// A 2xx body that is not what the endpoint returns.
  case invalidResponse(path: String, reason: String)
  /// The calling task was cancelled.
  case cancelled

  /// Whether trying again later may help: server errors, timeouts and network failures.
  public var isRetryable: Bool {
    switch self {
    case .httpStatus(let status, _, _): return status >= 500
    case .timedOut, .network: return true
    default: return false
    }
  }

  /// The failure as the shared state records it.
  public var loadFailure: LoadFailure {
    switch self {
    case .rateLimited(let rejection):
      return LoadFailure(
        kind: .rateLimited, message: rejection.message, retryAt: rejection.retryAt,
        status: rejection.status)
    case .notFound(let path):
      return LoadFailure(kind: .notFound, message: "not found: \(path)", status: 404)
    case .unauthorized(let status, let message):
      return LoadFailure(kind: .unauthorized, message: "\(status): \(message)", status: status)
    case .httpStatus(let status, _, let message):
      return LoadFailure(
        kind: .server, message: "GitHub answered \(status): \(message)", status: status)
    case .timedOut(let path):
      return LoadFailure(kind: .timedOut, message: "timed out: \(path)")
    case .network(_, let error):
      return LoadFailure(kind: .network, message: "network error: \(error.localizedDescription)")
    case .invalidResponse(let path, let reason):
      return LoadFailure(kind: .server, message: "unexpected response for \(path): \(reason)")
    case .cancelled:
      return LoadFailure(kind: .network, message: "cancelled")
    }
  }

  /// A sentence saying what failed.
  public var description: String {
    switch self {
    case .rateLimited(let rejection): return "rate limited: \(rejection)"
    case .notFound(let path): return "not found: \(path)"
    case .unauthorized(let status, let message): return "unauthorized (\(status)): \(message)"
    case .httpStatus(let status, let path, let message): return "\(path): \(status) \(message)"
    case .timedOut(let path): return "timed out: \(path)"
    case .network(let path, let error): return "\(path): network error \(error.code.rawValue)"
    case .invalidResponse(let path, let reason): return "\(path): \(reason)"
    case .cancelled: return "cancelled"
    }
  }
}

/// A request GitHub refused for its rate limit, with when to try again.
public struct RateLimitRejection: Sendable, Equatable, CustomStringConvertible {
  /// 403 or 429.
  public var status: Int
  /// GitHub's message.
  public var message: String
  /// `x-ratelimit-reset` when no requests remained: when the window resets, seconds since 1970.
  public var resetAt: Int64?
  /// `retry-after` (seconds, or an HTTP date): the seconds to wait (secondary rate limits).
  public var retryAfter: Int?
  /// When the response arrived, in seconds since 1970 (to turn `retryAfter` into a time).
  public var receivedAt: Int64

  /// When requests may resume, in seconds since 1970: the later of the two hints, or a
  /// minute from now when GitHub gave neither.
  public var retryAt: Int64 {
    let afterDelay = retryAfter.map { delay in
      let (sum, overflow) = receivedAt.addingReportingOverflow(Int64(delay))
      return overflow ? (delay < 0 ? Int64.min : .max) : sum
    }
    return [resetAt, afterDelay].compactMap { $0 }.max() ?? receivedAt + 60
  }

  /// The status, the message and the time to retry.
  public var description: String {
    "\(status) \(message) (retry at \(retryAt))"
  }
}
