import Foundation
import StatePatch
import Tandem
import Testing

@testable import TandemSync

@Suite("Operator APIs: statistics, ping and the delta stream", .serialized)
struct OperatorAPITests {
  @Test func statisticsAndPingDescribeTheLeader() async throws {
    let leader = try await makeLeader()
    let follower = try await makeFollower(leader)
    _ = try await follower.send(Increment()).applied()
    let control = LeaderControl(leader: leader.controlEndpoint)
    let (statistics, pong) = try await offThePool { (try control.statistics(), try control.ping()) }
    #expect(statistics.epoch == leader.epoch.description)
    #expect(statistics.sequence == 1)
    #expect(statistics.counters["actionsApplied"] == 1)
    #expect(statistics.followers.map(\.client).contains(follower.clientID))
    #expect(pong.epoch == leader.epoch)
    #expect(pong.sequence == 1)
    await follower.stop()
    await leader.stop()
  }

  @Test func aLeaderThatIsNotThereIsReportedInTime() async throws {
    let control = LeaderControl(leader: "tcp://127.0.0.1:1", timeout: .milliseconds(200))
    await #expect(throws: LeaderControlError.self) {
      try await offThePool { try control.statistics() }
    }
  }

  @Test func theDeltaStreamCarriesEveryAppliedActionInOrder() async throws {
    let leader = try await makeLeader()
    let json = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    let deltas = try await json.deltas()
    for _ in 0..<20 { leader.store.dispatch(Increment()) }
    var sequences: [UInt64] = []
    for await (epoch, delta) in deltas {
      #expect(epoch == leader.epoch)
      for (sequence, action) in delta.sequencedActions {
        #expect(action.tag == "test.increment")
        #expect(action.origin == .leader)
        sequences.append(sequence)
      }
      if sequences.count >= 20 { break }
    }
    #expect(sequences == Array(1...20))
    await json.stop()
    await leader.stop()
  }
}
