import Tandem
import TandemSync

/// Follower processes sending bumps to one leader, each keeping a window of unacknowledged
/// actions; timed from the start signal (an action in the shared state) to the last bump
/// applied at the leader, and to the last replica showing every bump.
struct SenderThroughput: Sendable {
  var items: Int
  var actions: Int
  var senders: Int
  var window: Int
  /// Whether each follower's replica store has a subscriber (then it shows every published
  /// state, one change per delta; without one, deltas that arrive together are one change).
  var subscribed = false
  /// When set, the leader's metrics are collected this often while the senders run (as a
  /// scrape of `/metrics` would: every counter read on the leader's loop thread).
  var scrapeEvery: Duration?
  /// More arguments for each worker process (its CURVE keys, say).
  var workerArguments: [String] = []

  /// Actions per second applied at the leader, and delivered to every replica, with a leader
  /// configured by `configure`.
  func measure(
    configure: @Sendable (inout LeaderConfiguration) -> Void = { _ in }
  ) async throws -> (applied: Double, delivered: Double) {
    let leader = try await SyncBenchmarkState.leader(items: items, configure: configure)
    let perSender = actions / senders
    let total = perSender * senders
    let workers = try (0..<senders).map { _ in
      try SyncBenchmarkWorker.start(
        "send", leader: leader.controlEndpoint,
        ["--count", String(perSender), "--window", String(window), "--until", String(total)]
          + (subscribed ? ["--subscribe"] : []) + workerArguments)
    }
    while try await leader.statistics().followers.count < senders {
      try await Task.sleep(for: .milliseconds(2))
      try Self.checkRunning(workers)
    }
    let scraper = scrapeEvery.map { interval in
      Task { [metrics = leader.metrics] in
        var scrapes = 0
        while !Task.isCancelled {
          scrapes += await metrics.exposition().isEmpty ? 0 : 1
          try? await Task.sleep(for: interval)
        }
        return scrapes
      }
    }
    defer { scraper?.cancel() }
    let clock = ContinuousClock()
    let start = clock.now
    leader.store.dispatch(StartSending())
    while leader.store.state.bumps < total {
      try await Task.sleep(for: .milliseconds(1))
      try Self.checkRunning(workers)
    }
    let applied = clock.now - start
    var slowest = 0.0
    for worker in workers {
      let output = try worker.finish().trimmingCharacters(in: .whitespacesAndNewlines)
      guard let seconds = Double(output) else {
        throw ChildProcessFailed(name: "sync send", status: -1)
      }
      slowest = max(slowest, seconds)
    }
    await leader.stop()
    return (Double(total) / applied.seconds, Double(total) / slowest)
  }

  /// Throws (with the exit status) if a worker has failed.
  private static func checkRunning(_ workers: [ChildProcess]) throws {
    for worker in workers where worker.hasFailed { _ = try worker.finish() }
  }
}

extension SyncBenchmarkState {
  /// A leader of a state with `items` items on loopback tcp, configured by `configure`.
  static func leader(
    items: Int, configure: (inout LeaderConfiguration) -> Void = { _ in }
  ) async throws -> Leader<SyncBenchmarkState> {
    let store = Store<SyncBenchmarkState>(
      reducer: syncBenchmarkReducer, state: SyncBenchmarkState(count: items))
    var configuration = LeaderConfiguration()
    configure(&configuration)
    return try await Leader(
      store: store, registry: syncBenchmarkRegistry, configuration: configuration)
  }
}
