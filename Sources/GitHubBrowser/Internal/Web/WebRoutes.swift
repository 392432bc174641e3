import Foundation
import MicroHTTP
import Tandem
import TandemSync

/// The web front end's handlers: the page at every screen's path, its script and style, the
/// views, the event stream and the actions.
struct WebRoutes: Sendable {
  let follower: Follower<BrowserState>
  let hub: EventHub
  let sweeper: SessionSweeper
  let actionTimeout: Duration
  let signIn: SignInRoutes

  /// The front end's handler: paths under a reserved first segment
  /// (``Route/Screen/reservedSegments``) go to the API and asset routes, any other `GET` to
  /// the page for the screen it names, or a 404 page when it names none.
  func handler() -> HTTPHandler {
    let api = apiRouter()
    return { request in
      let first = request.path.split(separator: "/").first.map { $0.lowercased() } ?? ""
      guard Route.Screen.reservedSegments.contains(first) else { return Self.page(for: request) }
      let response = try await api.handle(request)
      guard response.status == 404, first == "api" else { return response }
      return Self.problem(404, "no such API path: \(request.path)")
    }
  }

  /// The page for a screen's path, a 404 page for another path, 405 for a method other than
  /// `GET` or `HEAD`.
  static func page(for request: HTTPRequest) -> HTTPResponse {
    guard ["GET", "HEAD"].contains(request.method.uppercased()) else {
      var response = HTTPResponse.text("method \(request.method) not allowed\n", status: 405)
      response.headers["Allow"] = "GET, HEAD"
      return response
    }
    let found = Route.Screen(path: request.path) != nil
    return document(
      found ? WebPage.html : WebPage.notFoundHTML(path: request.path), status: found ? 200 : 404,
      type: "text/html; charset=utf-8")
  }

  /// The page, its script or its style, with the page's security headers.
  static func document(_ text: String, status: Int = 200, type: String) -> HTTPResponse {
    var headers: HTTPHeaders = ["Content-Type": type]
    for (name, value) in WebPage.securityHeaders.sorted(by: { $0.key < $1.key }) {
      headers[name] = value
    }
    headers["Cache-Control"] = "no-cache"
    return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
  }

  private func apiRouter() -> Router {
    var router = Router()
    router.get(WebPage.scriptPath) { _ in
      Self.document(WebPage.script, type: "text/javascript; charset=utf-8")
    }
    router.get(WebPage.stylePath) { _ in
      Self.document(WebPage.style, type: "text/css; charset=utf-8")
    }
    router.get("/api/view") { request in
      let session = try Self.session(of: request)
      return Self.json(hub.view(of: session, viewer: signIn.viewer(of: request)))
    }
    router.get("/api/events") { request in
      let session = try Self.session(of: request)
      let stream = EventStream()
      stream.send(ServerSentEvent(data: "", retry: 1000))
      hub.add(stream, session: session, viewer: signIn.viewer(of: request))
      return .eventStream(stream)
    }
    signIn.register(on: &router)
    router.get("/api/status") { _ in
      let statistics = try? await follower.statistics()
      return Self.json(
        WebStatus(
          connection: hub.connection, clientID: follower.clientID,
          eventStreams: hub.count, follower: statistics))
    }
    router.post("/api/actions") { request in
      await forward(request)
    }
    return router
  }

  /// Decodes, forwards and awaits one action; every failure becomes a 4xx or 5xx answer. The
  /// action's account is the browser's (see ``SignInRoutes/viewer(of:)``), whatever the body
  /// says; a browser that must sign in first gets 401. A ``Navigate`` of a session with no
  /// event stream here schedules the sweeper's check of it.
  func forward(_ request: HTTPRequest) async -> HTTPResponse {
    let viewer = signIn.viewer(of: request)
    let action: any Action
    do {
      action = try Self.decodeAction(request.body, account: viewer.account)
    } catch {
      return Self.problem(400, error.message)
    }
    if viewer == .signedOut, !(action is EndSession) {
      return Self.problem(401, "sign in with GitHub first", code: "signInRequired")
    }
    let receipt: Receipt
    do {
      receipt = try follower.send(action)
    } catch {
      return Self.problem(503, error.description)
    }
    let outcome = await Self.outcome(of: receipt, within: actionTimeout)
    // A session navigated without an event stream here (a script) is swept as a page that left;
    // the grace starts once the replica shows the navigation (or the wait for it ended).
    if let navigate = action as? Navigate, !hub.hasStream(of: navigate.session) {
      sweeper.scheduleCheck(of: navigate.session, on: hub)
    }
    switch outcome {
    case .success(let sequence)?:
      return Self.json(["sequence": sequence])
    case .failure(.rejected(let rejection))?:
      return Self.problem(422, rejection.message, code: rejection.code.rawValue)
    case .failure(let error)?:
      return Self.problem(503, error.description)
    case nil:
      return Self.problem(
        504,
        "the leader did not acknowledge the action within \(actionTimeout); it stays queued "
          + "and is applied once the leader is reachable")
    }
  }

  /// A request body's action: `{"tag": T, "payload": {...}}` with a tag browsers may send; a
  /// payload's `account` is set to `account`.
  static func decodeAction(
    _ body: [UInt8], account: String = ""
  ) throws(WebRequestError)
    -> any Action
  {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(body), options: [])
    } catch {
      throw WebRequestError("the body is not JSON: send {\"tag\": ..., \"payload\": {...}}")
    }
    guard let fields = object as? [String: Any], let tag = fields["tag"] as? String else {
      throw WebRequestError("the body must be a JSON object with a \"tag\" string")
    }
    guard browserUserTags.contains(tag) else {
      throw WebRequestError(
        "unknown action '\(tag)': the page may send \(browserUserTags.sorted().joined(separator: ", "))"
      )
    }
    var payload = fields["payload"] ?? [String: Any]()
    if tag != "github.session.end", var object = payload as? [String: Any] {
      object["account"] = account
      payload = object
    }
    guard JSONSerialization.isValidJSONObject(payload),
      let bytes = try? JSONSerialization.data(withJSONObject: payload, options: [])
    else {
      throw WebRequestError("the \"payload\" of '\(tag)' must be a JSON object")
    }
    do {
      return try browserRegistry.decode(tag: tag, payload: Array(bytes))
    } catch {
      throw WebRequestError("the payload does not fit '\(tag)': \(error)")
    }
  }

  /// The receipt's outcome, or `nil` when it has none within `timeout`. Whichever comes first
  /// ends the other wait: no task is left waiting for the receipt, or sleeping out the timeout.
  static func outcome(
    of receipt: Receipt, within timeout: Duration
  ) async -> Result<UInt64, FollowerError>? {
    await withTaskGroup(of: Result<UInt64, FollowerError>?.self) { group in
      group.addTask {
        do throws(FollowerError) {
          return .success(try await receipt.applied())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }

  static func session(of request: HTTPRequest) throws -> String {
    guard let session = request.query["session"], (1...128).contains(session.utf8.count) else {
      throw HTTPError(status: 400, "missing ?session=ID (1 to 128 bytes)")
    }
    return session
  }

  static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return HTTPResponse(
      status: status,
      headers: ["Content-Type": "application/json", "Cache-Control": "no-cache"],
      body: Array(body))
  }

  static func problem(_ status: Int, _ message: String, code: String? = nil) -> HTTPResponse {
    var fields = ["error": message]
    if let code { fields["code"] = code }
    return json(fields, status: status)
  }
}

/// A request the front end cannot forward, with the message the client gets in a 400.
struct WebRequestError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// `GET /api/status`: the connection and the follower's counters.
struct WebStatus: Codable, Sendable {
  var connection: BrowserView.Connection
  var clientID: String
  var eventStreams: Int
  var follower: FollowerStatistics?
}
