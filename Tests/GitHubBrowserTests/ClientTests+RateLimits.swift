import Foundation
import Testing

@testable import GitHubBrowser

/// Rate limits in the shapes GitHub sends them besides the plain ones in ``ClientTests``.
extension ClientTests {
  /// The rate limit `owner`'s repositories are refused with, and the clock (seconds since 1970)
  /// just before and just after the call.
  func rejection(
    of owner: String, client: GitHubClient
  ) async throws -> (RateLimitRejection, before: Int64, after: Int64) {
    let before = Int64(Date().timeIntervalSince1970)
    do {
      _ = try await client.repositories(of: .owner(owner), page: 1)
    } catch .rateLimited(let rejection) {
      return (rejection, before, Int64(Date().timeIntervalSince1970))
    }
    throw GitHubError.invalidResponse(path: owner, reason: "expected a rate limit")
  }

  @Test func secondaryLimitWithOnlyItsMessageWaitsAMinute() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let (rejection, _, _) = try await rejection(
      of: "secondary-limited", client: makeClient(fixture))
    #expect(rejection.status == 403)
    #expect(rejection.message.contains("secondary rate limit"))
    #expect(rejection.resetAt == nil, "requests remain: the window's reset is not the wait")
    #expect(rejection.retryAt == rejection.receivedAt + 60)
    await #expect(
      throws: GitHubError.unauthorized(
        status: 403, message: "Resource not accessible by personal access token")
    ) {
      try await makeClient(fixture).repositories(of: .owner("forbidden"), page: 1)
    }
  }

  @Test func retryAfterMayBeAnHTTPDate() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    // The fixture stamps a date 90 s after it answers, in whole seconds.
    let (rejection, before, after) = try await rejection(
      of: "throttled-until", client: makeClient(fixture))
    #expect(rejection.status == 429)
    let retryAfter = try #require(rejection.retryAfter)
    #expect((0...91).contains(retryAfter))
    #expect((before + 89...after + 91).contains(rejection.retryAt))
  }

  @Test func hugeRateLimitHeadersAreClampedToADay() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let (rejection, before, after) = try await rejection(of: "overflowing", client: client)
    let day = RateLimitHeaders.longestWait
    #expect(rejection.retryAfter == Int(day))
    #expect((before...after + day).contains(try #require(rejection.resetAt)))
    #expect((before + day...after + day).contains(rejection.retryAt))
    #expect((before...after + day).contains(try #require(client.rateLimit?.resetAt)))
    await #expect(throws: GitHubError.rateLimited(rejection), "refused until then") {
      try await client.repositories(of: .owner("grace"), page: 1)
    }
  }
}
