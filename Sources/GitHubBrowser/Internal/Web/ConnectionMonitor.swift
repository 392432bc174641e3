import Dispatch
import Foundation
import Synchronization
import TandemSync

/// Works out whether a follower is connected to its leader, from what TandemSync makes public:
/// the follower's statistics and a `PING` to the leader's control socket.
///
/// The monitor predates TandemSync's `connectionChanges()` and derives the state every
/// ``interval``: the replica counts as ``BrowserView/Connection/live`` when the leader answers
/// the ping, the replica follows the leader's epoch and has reached the sequence the ping
/// reported (or further), and the follower has not reconnected for ``settleTime``; otherwise it
/// is ``BrowserView/Connection/reconnecting``. It runs on a thread of its own, since
/// `LeaderControl` blocks while it waits for the reply; nothing ever waits for that thread
/// (``stop()`` only asks it to end), so no task of Swift's pool is blocked on it.
final class ConnectionMonitor: Sendable {
  private struct Sample {
    var reconnects = 0
    var lastReconnect = ContinuousClock.now - .seconds(3600)
    var lagging = 0
    var connection = BrowserView.Connection.live
    var stopped = false
  }

  let interval: Duration
  let settleTime: Duration
  private let leader: String
  private let follower: Follower<BrowserState>
  private let onChange: @Sendable (BrowserView.Connection) -> Void
  private let sample = Mutex(Sample())

  init(
    follower: Follower<BrowserState>, leader: String, interval: Duration = .milliseconds(500),
    settleTime: Duration = .seconds(1),
    onChange: @escaping @Sendable (BrowserView.Connection) -> Void
  ) {
    self.follower = follower
    self.leader = leader
    self.interval = interval
    self.settleTime = settleTime
    self.onChange = onChange
  }

  /// The latest derived connection.
  var connection: BrowserView.Connection { sample.withLock { $0.connection } }

  /// Starts the monitoring thread.
  func start() {
    let thread = Thread { [self] in
      while !sample.withLock({ $0.stopped }) {
        check()
        Thread.sleep(
          forTimeInterval: Double(interval.components.attoseconds) / 1e18
            + Double(interval.components.seconds))
      }
    }
    thread.name = "github-browser-connection"
    thread.start()
  }

  /// Asks the thread to end after its current check, without waiting for it (it may block
  /// for up to the ping's timeout); it reports no change once it has seen the request.
  func stop() {
    sample.withLock { $0.stopped = true }
  }

  private func check() {
    // The ping first: the replica's sequence, read after it, has had the time to reach it.
    let pong = try? LeaderControl(leader: leader, timeout: .seconds(1)).ping()
    guard !sample.withLock({ $0.stopped }) else { return }
    let statistics = Self.wait { [follower] in try? await follower.statistics() }
    let now = ContinuousClock.now
    let (changed, connection) = sample.withLock { sample -> (Bool, BrowserView.Connection) in
      if let statistics, statistics.reconnects != sample.reconnects {
        sample.reconnects = statistics.reconnects
        sample.lastReconnect = now
      }
      var live = false
      if let statistics, let pong, now - sample.lastReconnect >= settleTime,
        statistics.epoch == pong.epoch.description
      {
        // A replica a few deltas behind is normal under load; behind twice in a row is not.
        sample.lagging = statistics.sequence >= pong.sequence ? 0 : sample.lagging + 1
        live = sample.lagging < 2
      }
      let connection: BrowserView.Connection = live ? .live : .reconnecting
      defer { sample.connection = connection }
      return (connection != sample.connection, connection)
    }
    if changed, !sample.withLock({ $0.stopped }) { onChange(connection) }
  }

  /// Runs `body` as a task and blocks this (non-pool) thread until it returns.
  private static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let box = Mutex<T?>(nil)
    Task {
      let value = await body()
      box.withLock { $0 = value }
      semaphore.signal()
    }
    semaphore.wait()
    return box.withLock { $0! }
  }
}
