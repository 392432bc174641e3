
import Foundation
import Synchronization
@testable import TandemProtocol
@testable import TandemSync
import Testing
import ZeroMQ

extension DurableLeaderTests {
  @Test(.timeLimit(.minutes(2)))
  func anActionArrivingWhileTheLeaderStopsIsJournaledOrLeftUnanswered() async throws {
    // The window is the leader's own stop: a few rounds of a sender that never pauses.
    for _ in 0..<8 {
      let directory = try LeaderDirectory()
      let leader = try await makeDurableLeader(directory)
      let sender = SenderThread(endpoint: leader.controlEndpoint)
      await eventually("the leader applied some of the sender's actions") {
        sender.acknowledged > 0
      }
      await leader.stop()
      sender.stop()
      let applied = leader.store.state.counter
      #expect(sender.acknowledged <= applied)
      #expect(sender.rejected == 0)
      let restarted = try await makeDurableLeader(directory)
      #expect(restarted.store.state.counter == applied)
      await restarted.stop()
    }
  }
}

/// A thread sending `test.increment` actions one after another to a leader's control socket,
/// each after the answer to the one before (or a moment without one), until stopped.
private final class SenderThread: Sendable {
  private let counts = Mutex((acknowledged: 0, rejected: 0))
  private let running = Atomic(true)
  private let finished = DispatchSemaphore(value: 0)

  var acknowledged: Int { counts.withLock { $0.acknowledged } }
  var rejected: Int { counts.withLock { $0.rejected } }

  init(endpoint: String) {
    Thread { [self] in
      defer { finished.signal() }
      let client = RawClient(endpoint: endpoint)
      defer { client.close() }
      var number: UInt64 = 1
      while running.load(ordering: .relaxed) {
        let action = ForwardedAction(
          client: "sender", number: number, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8)
        )
        let frames = ControlRequest.dispatch(action).frames
        guard (try? client.socket.send(parts: frames, wait: .nonBlocking)) == true else { continue }
        number += 1
        guard let parts = try? client.socket.receiveParts(wait: .timeout(.milliseconds(20))),
          let reply = try? ControlReply(frames: parts)
        else { continue }
        counts.withLock { counts in
          switch reply {
          case .ack: counts.acknowledged += 1
          case .reject: counts.rejected += 1
          default: break
          }
        }
      }
    }.start()
  }

  /// Stops sending and waits for the thread to end.
  func stop() {
    running.store(false, ordering: .relaxed)
    finished.wait()
  }
}
