import Foundation
import Synchronization
import TandemSync
import Testing

@testable import GitHubBrowser

/// The page's connection badge, against a real leader and followers in this process: what the
/// event stream and `web.connection` show when the leader stops, starts again, or the front
/// end's follower stops, and that the task feeding the badge ends.
@Suite(.timeLimit(.minutes(1))) struct ConnectionBadgeTests {
  @Test func aStoppedLeaderShowsReconnectingAndLiveOnceStartedAgain() async throws {
    // ipc endpoints: the restarted leader binds them again, where a tcp port may be taken.
    let directory = NSTemporaryDirectory() + "badge-\(FollowerConfiguration.randomClientID())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (control, updates) = ("ipc://\(directory)/control", "ipc://\(directory)/updates")
    let service = try await ServiceHarness(control: control, updates: updates)
    let follower = try await service.follower()
    let web = try WebFrontEnd(follower: follower)
    let stream = try await Self.viewStream(port: web.port)
    #expect(try await Self.nextView(stream).connection == .live)

    // Each view is sent only when it changes: the next ones are the badge's changes, one each.
    await service.leader.stop()
    #expect(try await Self.nextView(stream).connection == .reconnecting)
    #expect(web.connection == .reconnecting)
    let restarted = try await ServiceHarness.leader(control: control, updates: updates)
    #expect(try await Self.nextView(stream).connection == .live)
    #expect(web.connection == .live)

    web.stop()
    #expect(await Self.ends(web.connectionFeed))
    await follower.stop()
    await restarted.stop()
    service.fixture.stop()
  }

  @Test func aFollowerThatStopsByItselfShowsDisconnected() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower(clientID: "front-end")
    let web = try WebFrontEnd(follower: follower)
    let stream = try await Self.viewStream(port: web.port)
    #expect(try await Self.nextView(stream).connection == .live)
    // Another follower takes the front end's client id over: the front end's next action is
    // refused as superseded, and its follower stops for good.
    let usurper = try await service.follower(clientID: "front-end")
    let answer = try await HTTPTestClient.request(
      port: web.port, method: "POST", path: "/api/actions", body: WebFrontEndTests.bookmark)
    #expect(answer.status == 503)
    #expect(try await Self.nextView(stream).connection == .disconnected)
    #expect(web.connection == .disconnected)
    #expect(await Self.ends(web.connectionFeed))
    web.stop()
    await service.stop([follower, usurper])
  }

  @Test func aFollowerStoppedUnderARunningFrontEndShowsDisconnected() async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    let web = try WebFrontEnd(follower: follower)
    await follower.stop()
    #expect(await eventually(.seconds(10)) { web.connection == .disconnected })
    #expect(await Self.ends(web.connectionFeed))
    web.stop()
    await service.stop([])
  }

  /// An open event stream of a session of the front end on `port`, past its head.
  static func viewStream(port: Int) async throws -> HTTPTestClient {
    let stream = try HTTPTestClient(port: port)
    try stream.send(method: "GET", path: "/api/events?session=tab")
    _ = try await onThread { try stream.head() }
    return stream
  }

  /// The next view `stream` sends (within its read timeout of 10 s).
  static func nextView(_ stream: HTTPTestClient) async throws -> BrowserView {
    let data = try await onThread { try stream.nextEvent(named: "view") }
    return try JSONDecoder().decode(BrowserView.self, from: Data(data.utf8))
  }

  /// Whether `task` ends within `timeout`.
  static func ends(_ task: Task<Void, Never>, within timeout: Duration = .seconds(10)) async -> Bool
  {
    let ended = Ended()
    Task {
      await task.value
      ended.flag.store(true, ordering: .sequentiallyConsistent)
    }
    return await eventually(timeout) { ended.flag.load(ordering: .sequentiallyConsistent) }
  }

  private final class Ended: Sendable {
    let flag = Atomic(false)
  }
}
