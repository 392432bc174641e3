/// What a simulated run is made of: how many processes, how the leader is configured, how often
/// each kind of fault strikes, and (for the simulator's own tests) which rule to break.
package struct SimulationConfiguration: Sendable {
  /// A rule of the protocol the simulator can break on purpose, to prove that its invariant
  /// checks notice.
  package enum Mutation: String, Sendable, CaseIterable {
    /// The leader welcomes a process whose client id another process took over, and answers
    /// its actions against the other's numbering (what the ledger's generations prevent).
    case answerAcrossTakeover = "answer-across-takeover"
    /// The leader sends each `ACK` as soon as the action is applied, before its batch is
    /// journaled.
    case acknowledgeBeforeCommit = "acknowledge-before-commit"
    /// A follower settles a receipt with the sequence its `ACK` names without waiting for its
    /// replica to show it.
    case settleBeforeVisible = "settle-before-visible"
  }

  /// How the leader publishes deltas.
  package enum Grouping: String, Sendable {
    case perAction, perBatch
  }

  /// The client ids the follower processes use (several processes may share one).
  package var clients: [String] = ["a", "b", "c"]
  package var grouping: Grouping = .perAction
  /// Whether the leader has a journal (else every restart starts a new history).
  package var journal = true
  /// Whether the journal syncs every commit (`full`) or may lose its tail when the machine
  /// crashes (`normal`).
  package var fullDurability = true
  /// Ledger and backlog bounds: small, so that forgetting and stale catch-ups happen.
  package var ledgerIdleLimit: UInt64 = 100_000
  package var ledgerMaximumClients = 16
  package var backlogCount = 48
  package var maximumCatchUpBytes = 8_192
  /// Timings, in simulated milliseconds.
  package var heartbeatMilliseconds: Int64 = 250
  package var silenceMilliseconds: Int64 = 1_000
  package var leaderForgetsFollowersAfterMilliseconds: Int64 = 6_000
  /// The longest a message waits on the network.
  package var maximumDelayMilliseconds: Int64 = 30
  /// The mean time between two actions of one process.
  package var sendIntervalMilliseconds: Int64 = 40
  /// The mean number of steps between two faults (0: no faults).
  package var stepsPerFault = 400
  /// Faults the run may inject; all by default.
  package var faults: Set<FaultKind> = Set(FaultKind.allCases)
  /// The simulated time after faults stop in which everything must converge.
  package var settleMilliseconds: Int64 = 30_000
  package var mutation: Mutation?
  /// Whether every trace line is printed as it happens (with every message), to debug a seed.
  package var printsTrace = false
  /// How many trace lines a failing run prints.
  package var traceLength = 80

  package init() {}

  /// A configuration varied by `seed`: grouping, journal, durability and bounds differ
  /// between seeds, so that many seeds cover the leader's settings.
  ///
  /// With `ledgerPressure`, some seeds give the leader's ledger bounds so small that it forgets
  /// clients that are still sending (see the protocol's rule on forgotten clients).
  package static func varied(
    by random: inout SimulationRandom, ledgerPressure: Bool = false
  ) -> SimulationConfiguration {
    var configuration = SimulationConfiguration()
    configuration.grouping = random.chance(0.5) ? .perAction : .perBatch
    configuration.journal = !random.chance(0.2)
    configuration.fullDurability = random.chance(0.5)
    if ledgerPressure {
      configuration.ledgerIdleLimit = random.chance(0.5) ? 120 : 100_000
      configuration.ledgerMaximumClients = random.chance(0.5) ? 3 : 16
    }
    configuration.backlogCount = random.pick([8, 48, 1_000])
    configuration.clients = Array(["a", "b", "c", "d"].prefix(random.int(1...4)))
    return configuration
  }
}

/// The kinds of fault the simulator injects.
package enum FaultKind: String, Sendable, CaseIterable, Comparable {
  /// A follower's control connection breaks; ZeroMQ reconnects it, under a new routing id.
  case connectionBreak = "connection-break"
  /// Messages queued for a follower's updates socket are dropped (a full queue).
  case updatesDropped = "updates-dropped"
  /// A follower is cut off from the leader for a while; its connections break.
  case partition
  /// A follower process is stopped (SIGSTOP) and resumed later.
  case followerPause = "follower-pause"
  /// A follower process is killed and started again later with the same client id.
  case followerKill = "follower-kill"
  /// A second process starts with a client id a running (or paused) process uses.
  case sharedClientID = "shared-client-id"
  /// The leader process is stopped and resumed later.
  case leaderPause = "leader-pause"
  /// The leader process is killed and restarted (from its journal, if it has one).
  case leaderCrash = "leader-crash"
  /// The leader's machine crashes: with `normal` durability the journal loses its tail.
  case machineCrash = "machine-crash"
  /// The leader restarts on another updates endpoint.
  case leaderMoves = "leader-moves"
  /// The journal refuses a commit.
  case commitFailure = "commit-failure"
  /// The control socket cannot queue an action (its high-water mark).
  case sendRefused = "send-refused"

  package static func < (a: FaultKind, b: FaultKind) -> Bool { a.rawValue < b.rawValue }
}
