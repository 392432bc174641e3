import Foundation

/// SIGINT and SIGTERM for the counter's processes: blocked in every thread, and received by one
/// waiting thread that runs the process's shutdown.
enum Signals {
  /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts later.
  static func block() {
    var set = signals()
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Waits on the calling thread until SIGINT or SIGTERM arrives; returns its number.
  static func wait() -> Int32 {
    var set = signals()
    var received: Int32 = 0
    while sigwait(&set, &received) != 0 {}
    return received
  }

  /// Starts a thread that waits for SIGINT or SIGTERM and then runs `shutdown`, which should end
  /// the process.
  static func onTermination(_ shutdown: @escaping @Sendable (Int32) -> Void) {
    let thread = Thread {
      shutdown(wait())
    }
    thread.name = "counter-signals"
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
