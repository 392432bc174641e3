import Synchronization
import TandemSync

/// Ends the sessions whose client is gone without saying so: a page that went away with no
/// `pagehide` beacon (a closed laptop, a crashed tab), or a client that posted ``Navigate``
/// without ever opening an event stream here (a script). Once a session has had no event
/// stream on this front end for `grace`, counted from its last stream's end or from its last
/// navigation posted here without one, its route leaves the shared state with ``EndSession``.
/// A page that reconnects within the grace (its `EventSource` retries after a second) keeps its
/// session.
///
/// The sweeper sees this front end's streams only, so a session's navigations and its event
/// stream must reach the same front end, as the page's do (it talks to the origin it was
/// loaded from).
final class SessionSweeper: Sendable {
  private struct Checks {
    /// The pending checks, by session; each removes itself when it ends.
    var pending: [String: Task<Void, Never>] = [:]
    /// Set once the front end stops: no check is scheduled after it.
    var stopped = false
  }

  private let follower: Follower<BrowserState>
  private let grace: Duration
  private let checks = Mutex(Checks())

  init(follower: Follower<BrowserState>, grace: Duration) {
    self.follower = follower
    self.grace = grace
  }

  /// `session` has no stream on `hub` now (its last one ended, or a navigation of it was posted
  /// without one): ends the session after the grace unless a stream of it is open by then. A
  /// later call for the same session starts the grace again.
  func scheduleCheck(of session: String, on hub: EventHub) {
    checks.withLock { checks in
      guard !checks.stopped else { return }
      checks.pending[session]?.cancel()
      checks.pending[session] = Task { [self] in
        try? await Task.sleep(for: grace)
        // A cancelled check was replaced by a newer one, or the front end stopped.
        guard !Task.isCancelled else { return }
        self.checks.withLock { _ = $0.pending.removeValue(forKey: session) }
        guard !hub.hasStream(of: session), follower.store.state.sessions[session] != nil
        else { return }
        _ = try? follower.send(EndSession(session: session))
      }
    }
  }

  /// Cancels every pending check and schedules no more (the front end stops: its streams
  /// ending says nothing about the pages).
  func stop() {
    let pending = checks.withLock { checks in
      defer {
        checks.pending.removeAll()
        checks.stopped = true
      }
      return Array(checks.pending.values)
    }
    for check in pending { check.cancel() }
  }
}
