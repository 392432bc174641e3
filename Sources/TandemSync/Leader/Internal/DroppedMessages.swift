import TandemProtocol

/// The messages the leader dropped and has not yet said so in its log, by why.
///
/// A drop is counted at once (in `messagesDropped`) but written to the log at most once per
/// interval, as one line with the counts: a follower that went away while a thousand deltas were
/// on their way is one line, not a thousand.
struct DroppedMessages {
  /// Why the leader dropped a message.
  enum Reason: CaseIterable {
    /// ZeroMQ did not take it: the peer has gone, or its queue is at the high-water mark.
    case unsent
    /// A large reply (`STATE`, `DELTAS`, `STATS`, ...) to a connection that already has its
    /// bytes of them queued.
    case replyBytesLimit

    var explanation: String {
      switch self {
      case .unsent: "the peer had gone or its queue was full"
      case .replyBytesLimit: "the connection had large replies queued to its limit"
      }
    }
  }

  private var unreported: [Reason: Int] = [:]
  private var lastReport: ContinuousClock.Instant?

  /// Counts one dropped message.
  mutating func count(_ reason: Reason) {
    unreported[reason, default: 0] += 1
  }

  /// The log line for the drops counted since the last one, when there are some and at least
  /// `interval` has passed since the last (the first drops are reported at once); else nil.
  mutating func report(now: ContinuousClock.Instant, every interval: Duration) -> String? {
    guard !unreported.isEmpty else { return nil }
    if let lastReport, now - lastReport < interval { return nil }
    let since = lastReport.map { " in the last \(Self.seconds(now - $0)) s" } ?? ""
    let parts = Reason.allCases.compactMap { reason in
      unreported[reason].map { "\($0) because \(reason.explanation)" }
    }
    unreported = [:]
    lastReport = now
    return "dropped messages\(since): " + parts.joined(separator: "; ")
      + " (followers recover by their own timeouts; the count is messagesDropped in STATS)"
  }

  private static func seconds(_ duration: Duration) -> String {
    let tenths = duration.milliseconds / 100
    return "\(tenths / 10).\(tenths % 10)"
  }
}
