/// A request as the server received it: method, path, query, headers and the whole body.
public struct HTTPRequest: Sendable {
  /// The method as sent by the client, such as `GET` or `POST`.
  public var method: String
  /// The path without the query string, percent-decoded by libmicrohttpd (so `%2F` becomes a
  /// `/` before a ``Router`` splits it), such as `/repos/apple/swift`.
  public var path: String
  /// The query parameters in order; a parameter without `=` has a `nil` value.
  public var queryItems: [(name: String, value: String?)]
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body bytes (never more than the server's ``HTTPServer/Configuration/maximumBodySize``).
  public var body: [UInt8]
  /// The values a ``Router`` took from `:name` segments of the matching pattern.
  public var pathParameters: [String: String]

  /// A request built by hand, as tests and routers do.
  public init(
    method: String, path: String, queryItems: [(name: String, value: String?)] = [],
    headers: HTTPHeaders = [:], body: [UInt8] = [], pathParameters: [String: String] = [:]
  ) {
    self.method = method
    self.path = path
    self.queryItems = queryItems
    self.headers = headers
    self.body = body
    self.pathParameters = pathParameters
  }

  /// The query parameters by name; when a name repeats, the last value wins.
  public var query: [String: String] {
    var result: [String: String] = [:]
    for item in queryItems { result[item.name] = item.value ?? "" }
    return result
  }

  /// The body decoded as UTF-8, with invalid bytes replaced.
  public var bodyText: String {
    String(decoding: body, as: UTF8.self)
  }
}
