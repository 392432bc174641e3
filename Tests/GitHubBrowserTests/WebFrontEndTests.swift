import Foundation
import GitHubBrowser
import MicroHTTP
import Tandem
import TandemSync
import Testing

/// The web front end's JSON API and event stream, on port 0, against a real leader.
@Suite(.timeLimit(.minutes(1))) struct WebFrontEndTests {
  func frontEnd(_ service: ServiceHarness) async throws -> (WebFrontEnd, Follower<BrowserState>) {
    let follower = try await service.follower()
    let web = try WebFrontEnd(follower: follower)
    return (web, follower)
  }

  static let bookmark = #"{"tag":"github.bookmark.add","payload":{"owner":"ada","name":"atlas"}}"#

  /// The body of a `github.navigate` of `session` to the bookmarks.
  static func navigate(_ session: String) -> String {
    #"{"tag":"github.navigate","payload":{"session":"\#(session)","route":{"screen":{"bookmarks":{}}}}}"#
  }

  @Test func postedActionIsAppliedAndAnsweredWithItsSequence() async throws {
    let service = try await ServiceHarness()
    let (web, follower) = try await frontEnd(service)
    let answer = try await HTTPTestClient.request(
      port: web.port, method: "POST", path: "/api/actions", body: Self.bookmark)
    #expect(answer.status == 200)
    #expect(answer.body == #"{"sequence":1}"#)
    #expect(follower.store.state.bookmarks(of: "") == [Bookmark(owner: "ada", name: "atlas")])
    web.stop()
    await service.stop([follower])
  }

  @Test func aFrontEndThatCannotBindLeavesNothingFollowingTheStore() async throws {
    let service = try await ServiceHarness()
    let (web, follower) = try await frontEnd(service)
    let taken = HTTPServer.Configuration(port: web.port)
    #expect(throws: HTTPServerError.self) { _ = try WebFrontEnd(follower: follower, server: taken) }
    web.stop()
    // Once the front end that serves has stopped, nothing follows the replica's states: the
    // one that could not bind left no feed behind.
    let deadline = ContinuousClock.now + .seconds(5)
    while follower.store.hasSubscribers, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(!follower.store.hasSubscribers)
    await service.stop([follower])
  }

  @Test func badRequestsAre400WithAMessageAndTheServerKeepsServing() async throws {
    let service = try await ServiceHarness()
    let (web, follower) = try await frontEnd(service)
    let bodies = [
      "not json", "[1, 2]", #"{"payload":{}}"#, #"{"tag":"no.such.action"}"#,
      #"{"tag":"github.load.complete","payload":{}}"#,
      #"{"tag":"github.bookmark.add","payload":{"owner":7}}"#,
      #"{"tag":"github.bookmark.add","payload":"text"}"#,
    ]
    for body in bodies {
      let answer = try await HTTPTestClient.request(
        port: web.port, method: "POST", path: "/api/actions", body: body)
      #expect(answer.status == 400, "\(body)")
      #expect(answer.body.contains(#""error":"#), "\(body)")
    }
    let view = try await HTTPTestClient.request(port: web.port, path: "/api/view?session=s1")
    #expect(view.status == 200)
    let missing = try await HTTPTestClient.request(port: web.port, path: "/api/view")
    #expect(missing.status == 400)
    #expect(follower.store.state == BrowserState())
    web.stop()
    await service.stop([follower])
  }

  @Test func actionTheLeaderRefusesIs422WithItsMessage() async throws {
    let service = try await ServiceHarness()
    let (web, follower) = try await frontEnd(service)
    let answer = try await HTTPTestClient.request(
      port: web.port, method: "POST", path: "/api/actions",
      body: #"{"tag":"github.bookmark.add","payload":{"owner":"ada","name":"two words"}}"#)
    #expect(answer.status == 422)
    #expect(answer.body.contains("not a repository name"))
    #expect(answer.body.contains(#""code":"refused""#))
    web.stop()
    await service.stop([follower])
  }

  @Test func eachSessionHasItsOwnRoute() async throws {
    let service = try await ServiceHarness()
    let (web, follower) = try await frontEnd(service)
    let answer = try await HTTPTestClient.request(
      port: web.port, method: "POST", path: "/api/actions", body: Self.navigate("s1"))
    #expect(answer.status == 200)
    let first = try await HTTPTestClient.request(port: web.port, path: "/api/view?session=s1")
    let second = try await HTTPTestClient.request(port: web.port, path: "/api/view?session=s2")
    let decoder = JSONDecoder()
    let one = try decoder.decode(BrowserView.self, from: Data(first.body.utf8))
    let two = try decoder.decode(BrowserView.self, from: Data(second.body.utf8))
    #expect(one.route == Route(screen: .bookmarks))
    #expect(two.route == nil)
    #expect(one.sessions == 1)
    web.stop()
    await service.stop([follower])
  }

  @Test func aSessionWhosePageLeftWithoutSayingSoIsEnded() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    // Keep-alive comments every 100 ms notice the closed stream; the grace is 200 ms.
    let web = try WebFrontEnd(
      follower: follower,
      server: HTTPServer.Configuration(keepAliveInterval: .milliseconds(100)),
      sessionGrace: .milliseconds(200))
    #expect(
      try await HTTPTestClient.request(
        port: web.port, method: "POST", path: "/api/actions", body: Self.navigate("gone")
      ).status == 200)
    var stream: HTTPTestClient? = try HTTPTestClient(port: web.port)
    try stream?.send(method: "GET", path: "/api/events?session=gone")
    _ = try await onThread { [stream] in try stream?.nextEvent(named: "view") }
    #expect(service.leader.store.state.sessions["gone"] != nil)
    stream = nil  // closes the connection, with no beacon
    #expect(await eventually(.seconds(20)) { service.leader.store.state.sessions["gone"] == nil })
    web.stop()
    await service.stop([follower])
  }

  @Test func aSessionOnlyPostedToIsEndedButOneWithAnEventStreamIsKept() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    let web = try WebFrontEnd(follower: follower, sessionGrace: .milliseconds(200))
    let stream = try HTTPTestClient(port: web.port)
    try stream.send(method: "GET", path: "/api/events?session=tab")
    _ = try await onThread { try stream.nextEvent(named: "view") }
    // "tab" navigates with its stream open, then a script navigates "script" with none (each is
    // applied: answered 200).
    for session in ["tab", "script"] {
      #expect(
        try await HTTPTestClient.request(
          port: web.port, method: "POST", path: "/api/actions", body: Self.navigate(session)
        ).status == 200)
    }
    #expect(await eventually(.seconds(20)) { service.leader.store.state.sessions["script"] == nil })
    // "tab" navigated first, so a grace of its would have run out first: its stream keeps it.
    #expect(service.leader.store.state.sessions["tab"] != nil)
    withExtendedLifetime(stream) {}
    web.stop()
    await service.stop([follower])
  }

  @Test func eventStreamOfOneFrontEndShowsABookmarkAddedThroughAnother() async throws {
    let service = try await ServiceHarness()
    let (a, followerA) = try await frontEnd(service)
    let (b, followerB) = try await frontEnd(service)
    let stream = try HTTPTestClient(port: b.port)
    try stream.send(method: "GET", path: "/api/events?session=tab-b")
    let head = try await onThread { try stream.head() }
    #expect(head.status == 200)
    #expect(head.headers["content-type"] == "text/event-stream")
    let decoder = JSONDecoder()
    let initial = try decoder.decode(
      BrowserView.self, from: Data(try await onThread { try stream.nextEvent(named: "view") }.utf8))
    #expect(initial.bookmarks.isEmpty)

    let answer = try await HTTPTestClient.request(
      port: a.port, method: "POST", path: "/api/actions", body: Self.bookmark)
    #expect(answer.status == 200)
    var seen: BrowserView?
    for _ in 0..<5 {
      let view = try decoder.decode(
        BrowserView.self,
        from: Data(try await onThread { try stream.nextEvent(named: "view") }.utf8))
      if !view.bookmarks.isEmpty {
        seen = view
        break
      }
    }
    #expect(seen?.bookmarks == [Bookmark(owner: "ada", name: "atlas")])
    #expect(seen?.connection == .live)
    a.stop()
    b.stop()
    await service.stop([followerA, followerB])
  }
}
