/// A handler: takes a request, returns a response or throws (an ``HTTPError`` picks the status).
public typealias HTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse

/// Sends each request to the handler whose method and path pattern match it.
///
/// Patterns are paths whose `:name` segments match any one segment and are passed to the handler
/// in ``HTTPRequest/pathParameters``. An unknown path gets a 404, a known path with another
/// method a 405 with an `Allow` header.
///
/// ```swift
/// var router = Router()
/// router.get("/repos/:owner/:repo") { request in
///   .text("repository \(request.pathParameters["repo"]!)")
/// }
/// let server = try HTTPServer(handler: router.handler)
/// ```
public struct Router: Sendable {
  private struct Route: Sendable {
    var method: String
    var segments: [Substring]
    var handler: HTTPHandler
  }

  private var routes: [Route] = []

  /// A router with no routes.
  public init() {}

  /// Adds a route for `method` (compared in upper case) and `pattern`; earlier routes win.
  public mutating func add(
    _ method: String, _ pattern: String, _ handler: @escaping HTTPHandler
  ) {
    precondition(pattern.hasPrefix("/"), "Router: a pattern starts with '/': \(pattern)")
    routes.append(
      Route(method: method.uppercased(), segments: Self.segments(pattern), handler: handler))
  }

  /// Adds a `GET` route (which also answers `HEAD`).
  public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add("GET", pattern, handler)
  }

  /// Adds a `POST` route.
  public mutating func post(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add("POST", pattern, handler)
  }

  /// Adds a `PUT` route.
  public mutating func put(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add("PUT", pattern, handler)
  }

  /// Adds a `DELETE` route.
  public mutating func delete(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add("DELETE", pattern, handler)
  }

  /// The router as a server handler.
  public var handler: HTTPHandler {
    let router = self
    return { request in try await router.handle(request) }
  }

  /// Answers `request` through the matching route, or with 404 or 405.
  public func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
    let path = Self.segments(request.path)
    var allowed: [String] = []
    for route in routes {
      guard let parameters = Self.match(route.segments, path) else { continue }
      let method = request.method.uppercased()
      guard route.method == method || (route.method == "GET" && method == "HEAD") else {
        allowed.append(route.method)
        continue
      }
      var matched = request
      matched.pathParameters = parameters
      return try await route.handler(matched)
    }
    if !allowed.isEmpty {
      var response = HTTPResponse.text("method \(request.method) not allowed\n", status: 405)
      response.headers["Allow"] = allowed.joined(separator: ", ")
      return response
    }
    return .text("no such resource: \(request.path)\n", status: 404)
  }

  private static func segments(_ path: String) -> [Substring] {
    path.split(separator: "/", omittingEmptySubsequences: true)
  }

  private static func match(_ pattern: [Substring], _ path: [Substring]) -> [String: String]? {
    guard pattern.count == path.count else { return nil }
    var parameters: [String: String] = [:]
    for (expected, actual) in zip(pattern, path) {
      if expected.hasPrefix(":") {
        parameters[String(expected.dropFirst())] = String(actual)
      } else if expected != actual {
        return nil
      }
    }
    return parameters
  }
}
