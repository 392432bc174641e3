import Tandem
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `counter follower --increment N` does: sends actions with a window of unresolved
/// receipts, and checks read-your-writes on every one.
///
/// The check: once the receipt of this run's k-th action resolves, the replica must show at
/// least k more actions of this client in ``CounterState/actionsByClient`` than it did before
/// the run. Each miss is a violation; a correct follower reports none.
///
/// ```swift
/// let report = await CounterLoad(increments: 1000, window: 64).run(on: follower)
/// assert(report.violations == 0)
/// ```
public struct CounterLoad: Sendable {
  /// How many `counter.increment` actions to send.
  public var increments: Int
  /// How many `counter.note` actions to send after the increments.
  public var notes: Int
  /// The size of each note's text, in bytes.
  public var noteBytes: Int
  /// The most receipts awaited at once.
  public var window: Int

  /// A load of `increments` increments, then `notes` notes of `noteBytes` bytes, with at most `window` receipts awaited at once.
  public init(increments: Int, notes: Int = 0, noteBytes: Int = 1024, window: Int = 64) {
    precondition(window >= 1, "CounterLoad needs a window of at least 1")
    self.increments = increments
    self.notes = notes
    self.noteBytes = noteBytes
    self.window = window
  }

  /// Sends the actions through `follower` and waits for every receipt; once `stopping`
  /// answers true it sends no more (the rest count as ``CounterLoadReport/unsent``) and waits
  /// for the receipts of those it sent.
  public func run(
    on follower: Follower<CounterState>, stopping: @Sendable () -> Bool = { false }
  ) async -> CounterLoadReport {
    let client = follower.clientID
    let baseline = follower.store.state.actionsByClient[client] ?? 0
    var report = CounterLoadReport(client: client)
    let start = ContinuousClock.now
    var pending: [(index: Int, receipt: Receipt)] = []
    var lastAcknowledgement = CounterLoadReport.Pause.now()
    func settleOldest() async {
      let (index, receipt) = pending.removeFirst()
      do {
        let sequence = try await receipt.applied()
        let now = CounterLoadReport.Pause.now()
        if now - lastAcknowledgement >= CounterLoadReport.Pause.threshold {
          report.pauses.append(.init(from: lastAcknowledgement, to: now))
        }
        lastAcknowledgement = now
        report.acknowledged += 1
        report.lastSequence = max(report.lastSequence, sequence)
        let seen = follower.store.state.actionsByClient[client] ?? 0
        if seen < baseline + index { report.violations += 1 }
      } catch let error {
        if case .rejected = error { report.rejected += 1 } else { report.failed += 1 }
      }
    }
    for index in stride(from: 1, through: increments + notes, by: 1) {
      if stopping() {
        report.unsent = increments + notes - index + 1
        break
      }
      let action: any Action =
        index <= increments
        ? IncrementCounter(client: client)
        : SetNote(text: Self.note(client: client, number: index, bytes: noteBytes), client: client)
      do {
        pending.append((index, try follower.send(action)))
        report.sent += 1
      } catch {
        report.failed += 1
        // A stopped follower refuses every later send too: leave them unsent.
        if follower.stopReason != nil {
          report.unsent = increments + notes - index
          break
        }
        continue
      }
      if pending.count >= window { await settleOldest() }
    }
    while !pending.isEmpty { await settleOldest() }
    report.seconds = Double((ContinuousClock.now - start) / .milliseconds(1)) / 1000
    return report
  }

  /// A note of exactly `bytes` bytes that differs from every other client's and number's.
  static func note(client: String, number: Int, bytes: Int) -> String {
    let head = "\(client):\(number):"
    guard head.utf8.count < bytes else { return String(head.prefix(bytes)) }
    return head + String(repeating: "n", count: bytes - head.utf8.count)
  }
}

/// The outcome of a ``CounterLoad`` run.
public struct CounterLoadReport: Codable, Equatable, Sendable {
  /// The follower's client id.
  public var client: String
  /// Actions handed to the follower.
  public var sent = 0
  /// Receipts that resolved with a sequence.
  public var acknowledged = 0
  /// Receipts the leader rejected.
  public var rejected = 0
  /// Actions that could not be sent, or whose receipt failed otherwise (follower stopped,
  /// history lost).
  public var failed = 0
  /// Actions not handed to the follower because it had stopped (a send it refused counts as
  /// failed; the rest of the run is not tried), or because the run was asked to stop.
  public var unsent = 0
  /// Receipts after which the replica did not show the action: read-your-writes broken.
  public var violations = 0
  /// The highest sequence an action of this run took effect at.
  public var lastSequence: UInt64 = 0
  /// The waits of at least ``Pause/threshold`` between two acknowledgements (or from the start
  /// to the first), in order: a leader failing over, restarting or slow.
  public var pauses: [Pause] = []
  /// Wall-clock time of the run.
  public var seconds = 0.0

  /// An empty report for `client`.
  public init(client: String) {
    self.client = client
  }

  /// A wait between two acknowledgements, in milliseconds since the Unix epoch (wall-clock
  /// time, so that a script can set it beside the moments it acted, such as a leader's kill).
  public struct Pause: Codable, Equatable, Sendable {
    /// The acknowledgement before the wait (or the run's start).
    public var from: Int64
    /// The first acknowledgement after it.
    public var to: Int64

    /// The shortest wait recorded: 250 ms.
    public static let threshold: Int64 = 250

    public init(from: Int64, to: Int64) {
      self.from = from
      self.to = to
    }

    /// The wall-clock time now, in milliseconds since the Unix epoch.
    static func now() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
  }

  /// The one-line summary `counter follower` prints.
  public var summary: String {
    let rate = seconds > 0 ? Int((Double(acknowledged) / seconds).rounded()) : 0
    return "client \(client): sent \(sent), acknowledged \(acknowledged), rejected \(rejected), "
      + "failed \(failed), unsent \(unsent), read-your-writes violations \(violations), last sequence "
      + "\(lastSequence), \(rate) actions/s"
  }
}
