import Foundation

/// SIGINT and SIGTERM for long-running commands: blocked in every thread, and taken by one
/// thread with `sigwait`, which then runs the command's clean shutdown.
///
/// ```swift
/// TerminationSignals.block()            // first thing in main, before any thread starts
/// let server = try startServer()
/// let signal = TerminationSignals.wait()
/// server.stop()
/// ```
public enum TerminationSignals {
  /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts later, and
  /// ignores SIGPIPE (a peer that goes away must not end the process).
  public static func block() {
    var set = signals()
    pthread_sigmask(SIG_BLOCK, &set, nil)
    signal(SIGPIPE, SIG_IGN)
  }

  /// Unblocks SIGINT and SIGTERM in the calling thread and in every thread it starts later: for
  /// a process started by one that called ``block()``, which inherits the blocked signals.
  public static func unblock() {
    var set = signals()
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Waits on the calling thread until SIGINT or SIGTERM arrives; returns its number.
  public static func wait() -> Int32 {
    var set = signals()
    var received: Int32 = 0
    while sigwait(&set, &received) != 0 {}
    return received
  }

  /// Starts a thread that waits for SIGINT or SIGTERM and then runs `shutdown`, which should end
  /// the process.
  public static func onTermination(_ shutdown: @escaping @Sendable (Int32) -> Void) {
    let thread = Thread { shutdown(wait()) }
    thread.name = "termination-signals"
    thread.start()
  }

  private static func signals() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    return set
  }
}
