import Foundation

/// SIGHUP for a long-running command that reloads something (a leader its key store): blocked
/// in every thread, and taken by one thread with `sigwait`, which runs the reload each time.
///
/// ```swift
/// ReloadSignal.block()                          // before the command starts any thread
/// let leader = try startLeader()
/// ReloadSignal.onHangup { try? reloadKeys(leader) }
/// ```
public enum ReloadSignal {
  /// Blocks SIGHUP in the calling thread and every thread it starts later. Call it before any
  /// other thread starts: a thread that does not block SIGHUP could take it, and its default
  /// action ends the process.
  public static func block() {
    var set = hangup()
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Blocks SIGHUP (see ``block()``, which must have run before other threads started), then
  /// starts a thread that calls `reload` at each SIGHUP.
  public static func onHangup(_ reload: @escaping @Sendable () -> Void) {
    block()
    let thread = Thread {
      var set = hangup()
      var received: Int32 = 0
      while true {
        if sigwait(&set, &received) == 0 { reload() }
      }
    }
    thread.name = "reload-signal"
    thread.start()
  }

  private static func hangup() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGHUP)
    return set
  }
}
