/// What a simulated run of standby leaders is made of: how many leader processes and clients,
/// the lease's length, the delays, which faults strike, and (for the simulator's own tests)
/// which rule to break.
package struct FailoverConfiguration: Sendable {
  /// A rule of the leadership protocol the simulator can break on purpose.
  package enum Mutation: String, Sendable, CaseIterable {
    /// A leader acknowledges whenever its commit went through, without asking whether its
    /// lease still has the safety margin left (``Leadership/mayAcknowledge(now:)``).
    case acknowledgeAfterLease = "acknowledge-after-lease"
    /// The arbiter appends without checking the fencing epoch in the same transaction.
    case appendWithoutFencing = "append-without-fencing"
  }

  /// The faults a standby run injects.
  package enum Fault: String, Sendable, CaseIterable, Comparable {
    /// A leader process is killed (SIGKILL) and started again later as a standby.
    case kill
    /// A leader process is stopped and resumed, often for longer than its lease (a GC pause).
    case pause
    /// A leader process is cut off from the arbiter (its database connection) for a while,
    /// but not from the clients.
    case cutOff = "cut-off"
    /// The active leader is asked to hand over cleanly.
    case handOver = "hand-over"
    /// A client's message to a leader, or a leader's answer, is lost.
    case messageLoss = "message-loss"

    package static func < (a: Fault, b: Fault) -> Bool { a.rawValue < b.rawValue }
  }

  package var leaders = 2
  package var clients = 3
  package var leaseMilliseconds: Int64 = 1_500
  /// The most a leader's clock runs slower or faster than the arbiter's, in percent.
  package var maximumDriftPercent = 5
  /// The longest one way to the arbiter, and on the clients' network.
  package var arbiterDelayMilliseconds: Int64 = 15
  package var networkDelayMilliseconds: Int64 = 15
  /// How long a request to the arbiter waits before the leader takes it as failed.
  package var arbiterTimeoutMilliseconds: Int64 = 200
  /// How often a leader commits the batch it gathered, and its timer ticks.
  package var tickMilliseconds: Int64 = 50
  /// The mean time between two actions of one client.
  package var sendIntervalMilliseconds: Int64 = 40
  /// How long a client waits for an answer before it sends again, and moves on to the next
  /// leader after two such waits.
  package var resendMilliseconds: Int64 = 400
  /// The mean number of steps between two faults.
  package var stepsPerFault = 300
  package var faults: Set<Fault> = Set(Fault.allCases)
  /// The simulated time after faults stop in which everything must settle.
  package var settleMilliseconds: Int64 = 20_000
  package var mutation: Mutation?
  package var printsTrace = false
  package var traceLength = 60

  package init() {}
}
