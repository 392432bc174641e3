
@testable import TandemProtocol
@testable import TandemSync
import Testing
import ZeroMQ

@Suite("The leader's follower table is bounded", .serialized)
struct FollowerTableTests {
  @Test func hellosUnderNewClientIDsKeepOnlyTheFollowersHeardFromLast() async throws {
    let leader = try await makeLeader { $0.maximumFollowers = 8 }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let owner = RawClient(endpoint: leader.controlEndpoint)
    defer { owner.close() }
    _ = try owner.request(
      .hello(version: ControlRequest.version, client: "owned", fingerprint: leader.fingerprint))
    for index in 0..<100 {
      let hello = ControlRequest.hello(
        version: ControlRequest.version, client: "made-up-\(index)", fingerprint: leader.fingerprint
      )
      guard case .welcome = try client.request(hello) else {
        Issue.record("expected WELCOME")
        return
      }
    }
    let listed = try await leader.statistics().followers.map(\.client)
    #expect(listed == (92..<100).map { "made-up-\($0)" }.sorted())
    // The forgotten follower's connection no longer owns its client id: a dispatch from another
    // connection is accepted, as for a client id no connection has said HELLO for.
    let increment = ForwardedAction(
      client: "owned", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8))
    guard case .ack = try client.request(.dispatch(increment)) else {
      Issue.record("expected the dispatch to be accepted")
      return
    }
    await leader.stop()
  }

  @Test func aPingFromAClientThatSaidNoHelloIsAnsweredButNotListed() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    let tool = RawClient(endpoint: leader.controlEndpoint)
    defer { tool.close() }
    guard case .pong = try tool.request(.ping(client: "tandem-cli", sequence: 0)) else {
      Issue.record("expected PONG")
      return
    }
    let listed = try await leader.statistics().followers.map(\.client)
    #expect(listed == [follower.clientID])
    await follower.stop()
    await leader.stop()
  }
}
