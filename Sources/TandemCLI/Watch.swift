import CommandLineKit
import TandemProtocol
import TandemSync

/// What `tandem watch` does once it has joined the leader: prints each delta with a
/// ``DeltaReport``, and says on standard error when the follower loses the leader, when it
/// follows it again, and when the leader restarted with a new history before the follower
/// noticed its silence, so that a watch of a dead leader does not look like one of a quiet
/// leader, and a new history does not pass for the old one.
///
/// ```text
/// watching epoch 5c5661e2d6746e4b from sequence 4
/// tandem watch: lost the leader at tcp://127.0.0.1:5600 (the leader has been silent for more
///   than 2.0 seconds); reconnecting
/// tandem watch: reconnected to the leader at tcp://127.0.0.1:5600 at sequence 9
/// tandem watch: the leader at tcp://127.0.0.1:5600 restarted with a new history (epoch
///   5c5661e2d6746e4b -> 0e5d2f0c9a1b7e33, at sequence 0)
/// ```
///
/// (Each `tandem watch:` line is one line.) With ``exitOnLoss`` a loss, or a restart with a new
/// history, ends the watch instead. A follower that stops by itself (the leader it rejoined
/// refused it) ends the watch with why.
public struct Watch: Sendable {
  /// How deltas are printed.
  public var report: DeltaReport
  /// The leader's control endpoint, as the status lines name it.
  public var leader: String
  /// Stop after this many deltas were printed; `nil` watches until the follower stops.
  public var count: Int?
  /// Whether losing the leader, or its history, ends the watch (status 69) rather than waiting
  /// for it.
  public var exitOnLoss: Bool

  /// The watch that `options` ask for.
  public init(options: ReadOptions) {
    report = DeltaReport(path: options.path, json: options.json)
    leader = options.connection.leader
    count = options.count
    exitOnLoss = options.exitOnLoss
  }

  /// Watches `follower`: writes each delta (and each jump in sequence) with `output`, and the
  /// start, each loss of the leader, each rejoin and each new history with `status`. Returns
  /// after ``count`` deltas, or when the follower stops (after printing every delta it applied).
  ///
  /// - Throws: `CommandFailure(.unavailable, ...)` when the follower loses the leader, or the
  ///   leader's history changes, and ``exitOnLoss`` is set; the failure of ``failure(stoppedBy:)``
  ///   when the follower stopped by itself; `JSONPatchError` for a delta whose patch is not JSON;
  ///   what `output` throws (a line it could not write ends the watch).
  public func run(
    _ follower: JSONFollower, output: @escaping @Sendable (String) throws -> Void,
    status: @escaping @Sendable (String) -> Void
  ) async throws {
    let start = try await follower.statistics()
    // Deltas applied before the stream begins show as a jump; the changes begin with the
    // connection as it is now. The first line says the watch is under way.
    let deltas = try await follower.deltas()
    let changes = try await follower.connectionChanges()
    status("watching epoch \(start.epoch) from sequence \(start.sequence)")
    let epoch = DeltaReport.start(of: start).epoch
    // Each task says whether the count was reached, which ends the watch; otherwise both
    // streams end when the follower stops. A loss with `exitOnLoss` throws.
    let counted = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        try await printDeltas(deltas, from: DeltaReport.start(of: start), output)
      }
      group.addTask {
        try await reportConnection(changes, following: epoch, status)
        return false
      }
      while let counted = try await group.next() {
        if counted {
          group.cancelAll()
          return true
        }
      }
      return false
    }
    if !counted, let failure = failure(stoppedBy: follower.stopReason) { throw failure }
  }

  /// The status line for `change`, for a watch that followed the history `epoch` and, when
  /// `lost`, had lost the leader: a loss; a rejoin (of another history when its epoch differs);
  /// or, without a loss before it, a new history (a leader restarted before the follower noticed
  /// its silence). `nil` for a change that needs no line: the stream's first element, the
  /// connection as the watch began.
  ///
  /// - Throws: `CommandFailure(.unavailable, ...)` for a loss or a new history when
  ///   ``exitOnLoss`` is set; its message is what the line would have said.
  public func statusLine(
    for change: FollowerConnection, following epoch: Epoch, lost: Bool
  ) throws(CommandFailure) -> String? {
    switch change {
    case .lost(let reason):
      let message = "lost the leader at \(leader) (\(reason))"
      if exitOnLoss { throw CommandFailure(.unavailable, message) }
      return "tandem watch: \(message); reconnecting"
    case .connected(let new, let sequence) where lost:
      let line = "tandem watch: reconnected to the leader at \(leader) at sequence \(sequence)"
      guard new != epoch else { return line }
      return line + " of a new history (epoch \(new); the watch followed epoch \(epoch))"
    case .connected(let new, let sequence):
      guard new != epoch else { return nil }
      let message =
        "the leader at \(leader) restarted with a new history (epoch \(epoch) -> \(new), at "
        + "sequence \(sequence))"
      if exitOnLoss { throw CommandFailure(.unavailable, message) }
      return "tandem watch: \(message)"
    }
  }

  /// How the watch ends when its follower stopped because of `reason`: `nil` for
  /// `FollowerError.stopped` (the follower was stopped) or no reason; otherwise a failure that
  /// says so, with status 76 when the leader refused the follower (its protocol version or
  /// schema at a rejoin, or another process took its client id), 77 when it refused its keys
  /// (or the key's role), and 69 for any other reason.
  public func failure(stoppedBy reason: FollowerError?) -> CommandFailure? {
    guard let reason, reason != .stopped else { return nil }
    let status: ExitStatus
    switch reason {
    case .authenticationFailed, .refused(code: .unauthorized, _): status = .noPermission
    case .refused: status = .protocolError
    default: status = .unavailable
    }
    return CommandFailure(status, "stopped following the leader at \(leader): \(reason)")
  }

  /// Prints the deltas until ``count`` were printed (returns true) or the follower stops
  /// (returns false).
  private func printDeltas(
    _ deltas: AsyncStream<(Epoch, Delta)>, from start: (epoch: Epoch, sequence: UInt64),
    _ output: @Sendable (String) throws -> Void
  ) async throws -> Bool {
    var printed = 0
    // Deltas applied between the announced start and the stream's first one show as a jump.
    var last = start
    for await (epoch, delta) in deltas {
      if let line = report.resync(after: last, before: delta, epoch: epoch) {
        try output(line)
      }
      last = (epoch, delta.sequence)
      guard let text = try report.render(delta, epoch: epoch) else { continue }
      try output(text)
      printed += 1
      if let count, printed >= count { return true }
    }
    return false
  }

  /// Writes a line for each change that needs one (see ``statusLine(for:following:lost:)``);
  /// returns when the follower stops.
  private func reportConnection(
    _ changes: AsyncStream<FollowerConnection>, following start: Epoch,
    _ status: @Sendable (String) -> Void
  ) async throws {
    var epoch = start
    var lost = false
    for await change in changes {
      if let line = try statusLine(for: change, following: epoch, lost: lost) { status(line) }
      switch change {
      case .lost:
        lost = true
      case .connected(let new, _):
        epoch = new
        lost = false
      }
    }
  }
}
