import CommandLineKit
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `tandem failover` does: asks the active leader of standby leaders to hand its lease
/// over (`STEP-DOWN`), then waits until another leader serves, asking the leaders given for
/// their statistics (a standby's `REDIRECT` leads to the holder it names).
///
/// ```swift
/// let options = try FailoverOptions(arguments: ["--leader", "tcp://a:5600,tcp://b:5600"])
/// let handOver = try Failover.run(options) { line throws(CommandFailure) in try writeLine(line) }
/// try writeLine(handOver.summary)
/// // handed over from a:41:x (fencing epoch 3) to b:52:y (fencing epoch 4) in 412 ms
/// ```
///
/// Like ``ControlClient``, it blocks the calling thread: call it from a command's main thread.
public enum Failover {
  /// A hand-over as `tandem failover` saw it.
  public struct HandOver: Sendable, Equatable {
    /// The leader id of the holder that stepped down.
    public var from: String
    /// The fencing epoch of the lease it handed over.
    public var fromFencingEpoch: UInt64
    /// The lease as the leader that serves now reported it (its holder and fencing epoch).
    public var to: LeaderStatistics.Lease
    /// From sending `STEP-DOWN` to the first statistics of the new holder.
    public var elapsed: Duration

    /// One line: `handed over from A (fencing epoch 3) to B (fencing epoch 4) in 412 ms`.
    public var summary: String {
      "handed over from \(from) (fencing epoch \(fromFencingEpoch)) to \(to.holder) (fencing "
        + "epoch \(to.fencingEpoch)) in \(milliseconds(elapsed)) ms"
    }
  }

  /// The pause between two rounds of asking for statistics.
  static let pollInterval = Duration.milliseconds(25)
  /// The longest one round waits for an endpoint's reply (the connection's timeout, if
  /// shorter): a leader answers `STATS` at once, and an endpoint between two processes (the old
  /// holder's leader closing, its standby binding) must not hold the wait up.
  static let replyTimeout = Duration.milliseconds(200)

  /// Hands the lease over: sends `STEP-DOWN` (following a standby's `REDIRECT` to the active
  /// leader), reports the hand-over that began through `progress`, and waits at most the
  /// options' timeout for another leader to serve.
  ///
  /// - Throws: the failures of ``ControlClient/stepDown()`` (a leader without standbys has no
  ///   lease to hand over: status ``CommandLineKit/ExitStatus/protocolError``), and status
  ///   ``CommandLineKit/ExitStatus/unavailable`` when no other leader took over in time.
  public static func run(
    _ options: FailoverOptions, progress: (String) throws(CommandFailure) -> Void
  ) throws(CommandFailure) -> HandOver {
    let start = ContinuousClock.now
    let lease = try ControlClient(options.connection).stepDown()
    try progress(
      "\(lease.holder) (fencing epoch \(lease.fencingEpoch)) at \(lease.leader) is handing over; "
        + "waiting up to \(milliseconds(options.timeout)) ms for another leader to take over")
    let successor = try awaitSuccessor(
      of: lease.holder, fencingEpoch: lease.fencingEpoch, connection: options.connection,
      since: start, timeout: options.timeout)
    return HandOver(
      from: lease.holder, fromFencingEpoch: lease.fencingEpoch, to: successor,
      elapsed: .now - start)
  }

  /// Asks the leaders of `connection` for their statistics, round after round, until one whose
  /// lease shows another holder than `holder` serving (see ``successor(in:replacing:)``), at
  /// most until `timeout` after `start`; returns that lease.
  ///
  /// - Throws: status ``CommandLineKit/ExitStatus/unavailable`` when none did in time, saying
  ///   what the last round found and that nothing was lost;
  ///   ``CommandLineKit/ExitStatus/noPermission`` or ``CommandLineKit/ExitStatus/usage`` at
  ///   once when a leader refuses the keys or an endpoint is not one.
  public static func awaitSuccessor(
    of holder: String, fencingEpoch: UInt64, connection: LeaderConnection,
    since start: ContinuousClock.Instant, timeout: Duration
  ) throws(CommandFailure) -> LeaderStatistics.Lease {
    let deadline = start + timeout
    var last: String?
    while true {
      let left = deadline - .now
      guard left > .zero else { break }
      var asking = connection
      let wait = min(connection.timeout, replyTimeout)
      asking.timeout = min(wait, left)
      do {
        let statistics = try ControlClient(asking).statistics()
        if let successor = successor(in: statistics, replacing: holder) { return successor }
        last = describe(statistics.lease)
      } catch {
        guard error.status == .unavailable || error.status == .protocolError else { throw error }
        // A round the deadline cut short says less than the one before it.
        if last == nil || left >= wait { last = error.message }
      }
      pause(min(pollInterval, deadline - .now))
    }
    throw CommandFailure(
      .unavailable,
      "no other leader took over from \(holder) (fencing epoch \(fencingEpoch)) within "
        + "\(milliseconds(timeout)) ms; last: \(last ?? "no leader answered"). Nothing was lost: \(holder) stopped "
        + "acknowledging only after committing and answering its batch, and followers send what "
        + "is still unanswered to whichever leader serves next. Check that a standby leader "
        + "shares the journal (tandem stats on each leader lists the standbys it sees).")
  }

  /// The lease in `statistics` when it shows a leader other than `holder` serving (role
  /// `active`): the leader that answered took the lease over. Nil otherwise: the old holder
  /// still answers (handing over), or the leader has no lease.
  public static func successor(
    in statistics: LeaderStatistics, replacing holder: String
  ) -> LeaderStatistics.Lease? {
    guard let lease = statistics.lease, lease.role == "active", lease.holder != holder else {
      return nil
    }
    return lease
  }

  /// What a leader's lease said, for the message when nobody took over.
  private static func describe(_ lease: LeaderStatistics.Lease?) -> String {
    guard let lease else { return "a leader without a lease answered" }
    return "a leader answered as \(lease.role), the lease held by \(lease.holder) (fencing "
      + "epoch \(lease.fencingEpoch))"
  }

  /// Blocks the calling thread for `duration` (nothing when it is not positive).
  private static func pause(_ duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
  }
}

/// `duration` in whole milliseconds, for messages.
private func milliseconds(_ duration: Duration) -> Int {
  Int(duration / .milliseconds(1))
}
