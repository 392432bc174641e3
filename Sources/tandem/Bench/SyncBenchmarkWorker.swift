import CommandLineKit
import Foundation
import Synchronization
import Tandem
import TandemSync

/// The follower processes of `tandem bench sync` (this executable with `--worker ROLE`):
/// - `follow`: follows until the replica has `--until` bumps;
/// - `send`: waits for the start, sends `--count` bumps keeping at most `--window` unanswered,
///   then waits until the replica has `--until` bumps; prints the seconds from the start (with
///   `--subscribe`, a subscriber checks that the replica's states only move forward to the last);
/// - `latency`: sends `--count` bumps one at a time, awaiting each receipt; prints the p50 and
///   p99 of send to applied, in microseconds (with `--on-loop`, the sending task runs on the
///   follower's I/O thread).
/// With `--key FILE --leader-key KEY` a worker connects with CURVE keys.
enum SyncBenchmarkWorker {
  /// Starts this executable as a worker playing `role` against `leader`.
  static func start(_ role: String, leader: String, _ extra: [String] = []) throws -> ChildProcess {
    try ChildProcess(
      "sync \(role)", arguments: ["bench", "sync", "--worker", role, "--leader", leader] + extra)
  }

  /// The roles a worker plays.
  private enum Role: String {
    case follow, send, latency
  }

  static func run(role name: String, arguments: inout CommandLineArguments) throws {
    guard let role = Role(rawValue: name) else {
      throw UsageError("unknown worker role '\(name)'")
    }
    try ChildProcess.endWithParent(&arguments)
    let leader = try arguments.required("leader")
    let count = try arguments.integer("count", default: 1000)
    let window = try arguments.integer("window", default: 1, in: 1...100_000)
    let until = try arguments.integer("until", default: 0)
    let subscribe = arguments.flag("subscribe")
    let onLoop = arguments.flag("on-loop")
    var configuration = FollowerConfiguration(leader: leader)
    configuration.security = try SecurityOptions.follower(
      key: arguments.option("key"), leaderKey: arguments.option("leader-key"), environment: [:])
    try arguments.finish()
    TandemLogging.bootstrapStandard(level: .error)
    let output = try blockingAsync { [configuration] in
      let follower = try await Follower<SyncBenchmarkState>(
        configuration: configuration, registry: syncBenchmarkRegistry)
      defer { Task { await follower.stop() } }
      let counter = StateCounter()
      if subscribe { follower.store.subscribe(counter) { $0.select(\.bumps) } }
      switch role {
      case .follow:
        try await waitUntil { follower.store.state.bumps >= until }
        return ""
      case .send:
        try await waitUntil { follower.store.state.started }
        let clock = ContinuousClock()
        let start = clock.now
        var outstanding: [Receipt] = []
        outstanding.reserveCapacity(window)
        for index in 0..<count {
          if outstanding.count == window { _ = try await outstanding.removeFirst().applied() }
          outstanding.append(try follower.send(Bump(index: index)))
        }
        for receipt in outstanding { _ = try await receipt.applied() }
        try await waitUntil { follower.store.state.bumps >= until }
        let elapsed = clock.now - start
        if subscribe {
          // The store shows a state just before its subscribers are notified of it. The
          // subscriber sees each published state once, in order (the leader publishes the
          // bumps it applied together as one delta), up to `until` bumps.
          let deadline = clock.now + .seconds(10)
          try await waitUntil { counter.last >= until || clock.now > deadline }
          guard counter.last == until, counter.inOrder else {
            throw UsageError(
              "the subscriber's states went \(counter.inOrder ? "" : "backwards or repeated, ")"
                + "ending at \(counter.last) bumps, not \(until)")
          }
        }
        return String(elapsed.seconds)
      case .latency:
        let figures = try await withTaskExecutorPreference(onLoop ? follower.executor : nil) {
          let clock = ContinuousClock()
          var samples: [Double] = []
          for index in 0..<(count + 200) {
            let start = clock.now
            _ = try await follower.send(Bump(index: index)).applied()
            if index >= 200 { samples.append((clock.now - start).seconds * 1e6) }
          }
          return Samples(samples)
        }
        return "\(figures.percentile(50)) \(figures.percentile(99))"
      }
    }
    print(output)
  }

  /// Polls `condition` every millisecond (a benchmark helper; the figures it gates are taken
  /// from clocks, not from the polling).
  private static func waitUntil(_ condition: () -> Bool) async throws {
    while !condition() { try await Task.sleep(for: .milliseconds(1)) }
  }
}

/// A subscriber that keeps the last bump count it is shown (on the follower's I/O thread), and
/// whether every count was above the one before.
private final class StateCounter: StoreSubscriber, Sendable {
  private let seen = Mutex((last: -1, inOrder: true))
  var last: Int { seen.withLock { $0.last } }
  var inOrder: Bool { seen.withLock { $0.inOrder } }

  func newState(state bumps: Int) {
    seen.withLock { seen in
      if bumps <= seen.last { seen.inOrder = false }
      seen.last = bumps
    }
  }
}
