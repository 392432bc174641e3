import MicroHTTP
import Testing

#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

@Suite struct HTTPServerTests {
  func makeRouter() -> Router {
    var router = Router()
    router.get("/hello") { request in .text("hello \(request.query["name"] ?? "you")") }
    router.post("/echo") { request in
      HTTPResponse(status: 201, headers: ["X-Length": "\(request.body.count)"], body: request.body)
    }
    router.get("/repos/:owner/:repo") { request in
      .text("\(request.pathParameters["owner"]!)/\(request.pathParameters["repo"]!)")
    }
    router.get("/query") { request in
      .text(request.queryItems.map { "\($0.name)=\($0.value ?? "<nil>")" }.joined(separator: ","))
    }
    router.get("/header") { request in .text(request.headers["x-probe"] ?? "none") }
    router.get("/refuse") { _ in throw HTTPError(status: 422, "cannot do that") }
    router.get("/fail") { _ in
      struct Secret: Error {}
      throw Secret()
    }
    return router
  }

  @Test func bindsAnyFreePortAndReadsItBack() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    #expect(server.port > 0)
    #expect(server.url == "http://127.0.0.1:\(server.port)")
  }

  @Test func routesByMethodAndPathWithParameters() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let hello = try await RawClient.fetch(port: server.port, path: "/hello?name=ada")
    #expect(hello.status == 200)
    #expect(hello.text == "hello ada")
    #expect(hello.headers["content-type"] == "text/plain; charset=utf-8")
    let repo = try await RawClient.fetch(port: server.port, path: "/repos/apple/swift")
    #expect(repo.text == "apple/swift")
    let echo = try await RawClient.fetch(
      port: server.port, method: "POST", path: "/echo", body: Array("ping".utf8))
    #expect(echo.status == 201)
    #expect(echo.text == "ping")
    #expect(echo.headers["x-length"] == "4")
  }

  @Test func pathIsPercentDecodedBeforeRouting() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let response = try await RawClient.fetch(port: server.port, path: "/repos/a%20b/%C3%A9t%C3%A9")
    #expect(response.text == "a b/été")
  }

  @Test func passesRequestHeaders() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let response = try await RawClient.fetch(
      port: server.port, path: "/header", headers: ["X-Probe": "seen"])
    #expect(response.text == "seen")
  }

  @Test func unknownPathIs404AndWrongMethodIs405() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    #expect(try await RawClient.fetch(port: server.port, path: "/nowhere").status == 404)
    let wrong = try await RawClient.fetch(port: server.port, method: "POST", path: "/hello")
    #expect(wrong.status == 405)
    #expect(wrong.headers["allow"] == "GET")
  }

  @Test func parsesQueryParametersInOrderAndDecoded() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let response = try await RawClient.fetch(
      port: server.port, path: "/query?a=1&b=two%20words&flag&a=3&c=%C3%A9")
    #expect(response.text == "a=1,b=two words,flag=<nil>,a=3,c=é")
  }

  @Test func bodyOverTheLimitIs413() async throws {
    let server = try HTTPServer(
      configuration: .init(maximumBodySize: 16), router: makeRouter())
    defer { server.stop() }
    let fits = try await RawClient.fetch(
      port: server.port, method: "POST", path: "/echo", body: Array(repeating: 65, count: 16))
    #expect(fits.status == 201)
    let tooBig = try await RawClient.fetch(
      port: server.port, method: "POST", path: "/echo", body: Array(repeating: 65, count: 17))
    #expect(tooBig.status == 413)
  }

  @Test func chunkedBodyOverTheLimitIs413() async throws {
    let server = try HTTPServer(
      configuration: .init(maximumBodySize: 16), router: makeRouter())
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    try client.send(
      "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "a\r\n0123456789\r\na\r\n0123456789\r\n0\r\n\r\n")
    #expect(try await offPool { try client.readHead() }.status == 413)
  }

  @Test func thrownHTTPErrorKeepsItsStatusAndOtherErrorsAre500() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let refused = try await RawClient.fetch(port: server.port, path: "/refuse")
    #expect(refused.status == 422)
    #expect(refused.text == "cannot do that\n")
    let failed = try await RawClient.fetch(port: server.port, path: "/fail")
    #expect(failed.status == 500)
    #expect(failed.text == "internal server error\n")
  }

  @Test func malformedRequestIsAnsweredNotFatal() async throws {
    let server = try HTTPServer(router: makeRouter())
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    try client.send("THIS IS NOT HTTP\r\n\r\n")
    let status = try await offPool { try client.readHead() }.status
    #expect((400..<500).contains(status))
    #expect(try await RawClient.fetch(port: server.port, path: "/hello").status == 200)
  }

  @Test func handlersRunConcurrently() async throws {
    // Every handler waits until all of them have started: this only finishes if the server
    // runs them side by side.
    let count = 8
    let started = Shared(0)
    var router = Router()
    router.get("/gate") { _ in
      started.update { $0 += 1 }
      guard await eventually(.seconds(30), { started.current >= count }) else {
        throw HTTPError(status: 504, "handlers did not run concurrently")
      }
      return .text("through")
    }
    let server = try HTTPServer(router: router)
    defer { server.stop() }
    let url = URL(string: "\(server.url)/gate")!
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = count
    let session = URLSession(configuration: configuration)
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<count {
        group.addTask {
          let (_, response) = try await session.data(from: url)
          return (response as! HTTPURLResponse).statusCode
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 200, count: count))
  }

  @Test func invalidHostIsRefused() {
    #expect(throws: HTTPServerError.invalidHost("not-an-address")) {
      try HTTPServer(configuration: .init(host: "not-an-address"), router: Router())
    }
  }

  @Test func portInUseFailsToStart() async throws {
    let first = try HTTPServer(router: Router())
    defer { first.stop() }
    #expect {
      try HTTPServer(configuration: .init(port: first.port), router: Router())
    } throws: { error in
      guard case .startFailed(_, let port, _) = error as? HTTPServerError else { return false }
      return port == first.port
    }
  }

  @Test func stopClosesTheListeningSocketAndIsIdempotent() async throws {
    let server = try HTTPServer(router: makeRouter())
    let port = server.port
    server.stop()
    server.stop()
    await #expect(throws: RawClient.Failure.self) {
      try await RawClient.fetch(port: port, path: "/hello")
    }
  }

  @Test func stopCancelsRunningHandlersAndClosesTheirConnections() async throws {
    let entered = Shared(false)
    let cancelled = Shared(false)
    var router = Router()
    router.get("/slow") { _ in
      entered.update { $0 = true }
      do {
        try await Task.sleep(for: .seconds(60))
      } catch {
        cancelled.update { $0 = true }
        throw error
      }
      return .text("too late")
    }
    let server = try HTTPServer(router: router)
    let client = try RawClient(port: server.port)
    try client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(await eventually { entered.current })
    server.stop()
    #expect(await eventually { cancelled.current })
    let line = try await offPool { try client.readLine() }
    #expect(line == nil || line!.contains("503"))
  }

}
