import Foundation

/// Reads the times in GitHub's rate-limit headers, bounded to within ``longestWait`` of the
/// response, so that no header value, however large, overflows the arithmetic done with it.
enum RateLimitHeaders {
  /// The longest wait a header may impose, in seconds: a day (GitHub's windows last an hour).
  static let longestWait: Int64 = 86_400

  /// `x-ratelimit-reset` (seconds since 1970), moved into `now...now + longestWait`; `nil` when
  /// absent or not an integer.
  static func resetTime(_ value: String?, now: Int64) -> Int64? {
    value.flatMap(integer).map { min(max($0, now), now + longestWait) }
  }

  /// `retry-after` as seconds to wait from `now`, in `0...longestWait`: the header is a number
  /// of seconds or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`); `nil` when absent or neither.
  static func retryAfter(_ value: String?, now: Date) -> Int? {
    guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
    if let seconds = integer(value) {
      return Int(min(max(seconds, 0), longestWait))
    }
    guard let date = httpDateFormatter().date(from: value) else { return nil }
    let seconds = min(max(date.timeIntervalSince(now), 0), Double(longestWait))
    return Int(seconds.rounded(.up))
  }

  /// A formatter of HTTP dates (RFC 9110's IMF-fixdate), for reading and writing them.
  static func httpDateFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }

  /// A decimal integer; one with more digits than `Int64` holds saturates to its sign's bound.
  private static func integer(_ text: String) -> Int64? {
    if let value = Int64(text) { return value }
    let negative = text.hasPrefix("-")
    let digits = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    return negative ? .min : .max
  }
}
