import Synchronization
import TandemSync

/// Ends the sessions whose page went away without saying so (a closed laptop, a crashed tab: no
/// `pagehide` beacon): once a session has had no event stream on this front end for `grace`,
/// its route leaves the shared state with ``EndSession``. A page that reconnects within the
/// grace (its `EventSource` retries after a second) keeps its session.
final class SessionSweeper: Sendable {
  private let follower: Follower<BrowserState>
  private let grace: Duration
  /// The pending checks, by session; each removes itself when it ends.
  private let checks = Mutex<[String: Task<Void, Never>]>([:])

  init(follower: Follower<BrowserState>, grace: Duration) {
    self.follower = follower
    self.grace = grace
  }

  /// The last stream of `session` on `hub` ended: ends the session after the grace unless a
  /// stream of it is open again by then.
  func lastStreamEnded(of session: String, on hub: EventHub) {
    checks.withLock { checks in
      checks[session]?.cancel()
      checks[session] = Task { [self] in
        try? await Task.sleep(for: grace)
        // A cancelled check was replaced by a newer one, or the front end stopped.
        guard !Task.isCancelled else { return }
        self.checks.withLock { _ = $0.removeValue(forKey: session) }
        guard !hub.hasStream(of: session), follower.store.state.sessions[session] != nil
        else { return }
        _ = try? follower.send(EndSession(session: session))
      }
    }
  }

  /// Cancels every pending check (the front end stops: its streams ending says nothing about
  /// the pages).
  func cancelAll() {
    let pending = checks.withLock { checks in
      defer { checks.removeAll() }
      return Array(checks.values)
    }
    for check in pending { check.cancel() }
  }
}
