#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

/// A successful answer: the body (fresh, or reused from the ETag cache after a 304), the
/// headers that matter, and the rate limit it reported.
public struct GitHubResponse: Sendable {
  /// The body.
  public var body: Data
  /// The `Content-Type`.
  public var contentType: String?
  /// The `Link` header (of the cached response after a 304).
  public var link: String?
  /// The `ETag`, if any.
  public var etag: String?
  /// Whether GitHub answered 304 and the cached body was reused.
  public var fromCache: Bool
  /// The rate limit from `x-ratelimit-*`, when present.
  public var rateLimit: RateLimitStatus?
}

/// One page of a list with the page numbers GitHub's `Link` header gave.
public struct GitHubPage<Element: Sendable>: Sendable {
  /// The page's items.
  public var items: [Element]
  /// This page's number.
  public var page: Int
  /// `rel="next"`'s page, or `nil` on the last page.
  public var nextPage: Int?
  /// `rel="last"`'s page, when given.
  public var lastPage: Int?
  /// Whether the page came from the ETag cache.
  public var fromCache: Bool
  /// The rate limit reported with it.
  public var rateLimit: RateLimitStatus?
}
