import CommandLineKit
import CounterExample
import Synchronization
import TandemMetrics
import TandemSync

/// What a follower process undoes before it exits, from the main thread or the signal thread:
/// the terminal back to normal, a last status file, the follower stopped. Runs once.
final class Shutdown: Sendable {
  private struct Parts {
    var follower: Follower<CounterState>?
    var status: StatusFile?
    var metrics: MetricsServer?
    var done = false
  }

  private let terminal: RawTerminal?
  private let parts = Mutex(Parts())

  init(terminal: RawTerminal?) {
    self.terminal = terminal
  }

  /// Adds the joined follower and its status file to what is shut down.
  func attach(_ follower: Follower<CounterState>, status: StatusFile?) {
    parts.withLock {
      $0.follower = follower
      $0.status = status
    }
  }

  /// Adds the metrics server, which serves until the shutdown.
  func attach(_ metrics: MetricsServer?) {
    parts.withLock { $0.metrics = metrics }
  }

  /// Shuts down; later calls do nothing.
  func run() {
    let parts = self.parts.withLock { parts -> Parts? in
      guard !parts.done else { return nil }
      parts.done = true
      return parts
    }
    guard let parts else { return }
    if let terminal {
      terminal.restore()
      writeOut("\n")
    }
    parts.metrics?.stop()
    parts.status?.finish()
    if let follower = parts.follower {
      try? blockingAsync { await follower.stop() }
    }
  }
}
