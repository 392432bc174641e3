/// What a handler answers: a status, header fields and either bytes or an event stream.
///
/// ```swift
/// return .text("not here", status: 404)
/// return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: bytes)
/// return .eventStream(stream)
/// ```
public struct HTTPResponse: Sendable {
  /// The body of a response.
  public enum Body: Sendable {
    /// A complete body, sent with a `Content-Length`.
    case bytes([UInt8])
    /// A Server-Sent Events stream that stays open until it is finished or the client leaves.
    case eventStream(EventStream)
  }

  /// The status code, such as 200.
  public var status: Int
  /// The header fields; the server adds `Content-Length` (or chunking) and `Date` itself.
  public var headers: HTTPHeaders
  /// The body.
  public var body: Body

  /// A response with a complete body.
  public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = .bytes(body)
  }

  /// A `text/plain; charset=utf-8` response.
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Array(text.utf8))
  }

  /// A `text/event-stream` response fed by `stream`, with caching turned off.
  public static func eventStream(_ stream: EventStream) -> HTTPResponse {
    var response = HTTPResponse(
      status: 200,
      headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"])
    response.body = .eventStream(stream)
    return response
  }

  /// The body bytes, or an empty array for an event stream.
  public var bodyBytes: [UInt8] {
    if case .bytes(let bytes) = body { return bytes }
    return []
  }
}

/// An error a handler throws to answer with a given status and message (as plain text).
///
/// Any other error thrown by a handler becomes a 500 whose body does not reveal the error.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The status code to answer with, such as 400.
  public var status: Int
  /// The text sent as the body.
  public var message: String

  /// An error answered with `status` and `message`.
  public init(status: Int, _ message: String) {
    self.status = status
    self.message = message
  }

  /// The status and the message.
  public var description: String { "\(status): \(message)" }
}
