import Synchronization
import TandemSync

/// The sender of `tandem bench failover`: sends ticks 1, 2, 3... through a follower, keeping at
/// most `window` receipts unresolved, and notes when each receipt resolved (the replica shows
/// the tick), by `ContinuousClock`, until told to stop.
///
/// Run it on the follower's I/O thread (`Task(executorPreference: follower.executor)`): each
/// `applied()` then resumes right after the delta that resolves it was applied, so the time
/// noted is the time the replica showed the tick.
final class FailoverSender: Sendable {
  private let follower: Follower<FailoverBenchmarkState>
  private let window: Int
  private let progress = Mutex(Progress())

  private struct Progress {
    /// When the receipt of tick n resolved, at n - 1 (nil for a receipt that failed).
    var resolved: [ContinuousClock.Instant?] = []
    var stopping = false
  }

  /// What a run sent, and what became of it.
  struct Report: Sendable {
    /// Ticks handed to the follower (numbered 1 through `sent`).
    var sent = 0
    /// Receipts that resolved with a sequence.
    var acknowledged = 0
    /// Receipts that failed (rejected, follower stopped, history lost): the ticks' fate is
    /// unknown. Sends the follower refused are tried again with the same number.
    var failed = 0
  }

  init(follower: Follower<FailoverBenchmarkState>, window: Int) {
    self.follower = follower
    self.window = window
  }

  /// Sends until ``stop()``, then waits for the receipts of what it sent.
  func run() async -> Report {
    var report = Report()
    var pending: [(number: Int, receipt: Receipt)] = []
    pending.reserveCapacity(window)
    func settleOldest() async {
      let (number, receipt) = pending.removeFirst()
      var resolved: ContinuousClock.Instant?
      do {
        _ = try await receipt.applied()
        resolved = .now
        report.acknowledged += 1
      } catch {
        report.failed += 1
      }
      progress.withLock { progress in
        precondition(progress.resolved.count == number - 1, "receipts settle in order")
        progress.resolved.append(resolved)
      }
    }
    while !progress.withLock({ $0.stopping }) {
      if pending.count == window { await settleOldest() }
      let number = report.sent + 1
      do {
        pending.append((number, try follower.send(Tick(number: number))))
        report.sent = number
      } catch {
        if follower.stopReason != nil { break }
        // The outbox is full (it never is with a window below its capacity): wait a little.
        if pending.isEmpty { try? await Task.sleep(for: .milliseconds(1)) }
        if !pending.isEmpty { await settleOldest() }
      }
    }
    while !pending.isEmpty { await settleOldest() }
    return report
  }

  /// When the receipt of tick `number` resolved; nil while it has not (or if it failed).
  func resolution(ofTick number: Int) -> ContinuousClock.Instant? {
    progress.withLock { progress in
      progress.resolved.count >= number ? progress.resolved[number - 1] : nil
    }
  }

  /// Receipts settled so far (resolved or failed).
  var settled: Int { progress.withLock { $0.resolved.count } }

  /// Makes ``run()`` send no more.
  func stop() {
    progress.withLock { $0.stopping = true }
  }
}
