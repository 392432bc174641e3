// The processes of scripts/checks/rolling-upgrade: a leader or a loading follower of version 1
// or 2 of a counter (CounterVersions), each stopping on SIGTERM.
//
//   rolling-upgrade-helper leader VERSION CONTROL UPDATES JOURNAL
//     prints its control endpoint, serves until SIGTERM
//   rolling-upgrade-helper follower VERSION LEADER CLIENT-ID WINDOW
//     keeps WINDOW increases in flight until SIGTERM, then waits for the unanswered ones and
//     prints {"sent": N, "acknowledged": N, "failed": N, "hashMismatches": N,
//     "applyFailures": N, "acks": [ms since the epoch, ...]}
import CommandLineKit
import CounterVersions
import Foundation
import Synchronization
import Tandem
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

TerminationSignals.block()

/// What a follower's load did.
struct LoadTally: Sendable {
  var sent = 0
  var acknowledged = 0
  var failed = 0
  var acks: [Int64] = []
}

/// The load's shared state: whether SIGTERM came, and the tally.
final class Load: Sendable {
  let stopping = Atomic<Bool>(false)
  let tally = Mutex(LoadTally())
}

func leader<State: Codable & Sendable>(
  _ store: Store<State>, registry: ActionRegistry, control: String, updates: String,
  journal: String
) throws {
  var settings = LeaderConfiguration(control: control, updates: updates)
  settings.journalPath = journal
  settings.heartbeatInterval = .milliseconds(100)
  let configuration = settings
  let leader = try blockingAsync {
    try await Leader(store: store, registry: registry, configuration: configuration)
  }
  FileHandle.standardOutput.write(Data((leader.controlEndpoint + "\n").utf8))
  _ = TerminationSignals.wait()
  try blockingAsync { await leader.stop() }
}

func follower<State: Codable & Sendable>(
  _: State.Type, registry: ActionRegistry, leader: String, client: String, window: Int
) throws {
  var settings = FollowerConfiguration(leader: leader, clientID: client)
  settings.silenceLimit = .seconds(2)
  settings.reconnectDelay = .milliseconds(50)
  settings.joinTimeout = .seconds(30)
  let configuration = settings
  let follower = try blockingAsync {
    try await Follower<State>(configuration: configuration, registry: registry)
  }
  let load = Load()
  TerminationSignals.onTermination { _ in load.stopping.store(true, ordering: .relaxed) }
  let statistics = try blockingAsync {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<window {
        group.addTask {
          while !load.stopping.load(ordering: .relaxed) {
            let receipt: Receipt
            do {
              receipt = try follower.send(CounterV1.Increase())
            } catch {
              load.tally.withLock { $0.failed += 1 }
              return
            }
            load.tally.withLock { $0.sent += 1 }
            do {
              _ = try await receipt.applied()
              let now = Int64(Date().timeIntervalSince1970 * 1000)
              load.tally.withLock {
                $0.acknowledged += 1
                $0.acks.append(now)
              }
            } catch {
              load.tally.withLock { $0.failed += 1 }
            }
          }
        }
      }
    }
    let statistics = try? await follower.statistics()
    await follower.stop()
    return statistics
  }
  let result = load.tally.withLock { $0 }
  let acks = result.acks.map(String.init).joined(separator: ",")
  print(
    "{\"sent\": \(result.sent), \"acknowledged\": \(result.acknowledged), "
      + "\"failed\": \(result.failed), \"hashMismatches\": \(statistics?.hashMismatches ?? -1), "
      + "\"applyFailures\": \(statistics?.applyFailures ?? -1), \"acks\": [\(acks)]}")
}

let words = Array(CommandLine.arguments.dropFirst())
do {
  switch (words.first, words.count > 1 ? words[1] : "") {
  case ("leader", "1") where words.count == 5:
    try leader(
      CounterV1.store(), registry: CounterV1.registry, control: words[2], updates: words[3],
      journal: words[4])
  case ("leader", "2") where words.count == 5:
    try leader(
      CounterV2.store(), registry: CounterV2.registry, control: words[2], updates: words[3],
      journal: words[4])
  case ("follower", "1") where words.count == 5:
    try follower(
      CounterV1.State.self, registry: CounterV1.registry, leader: words[2], client: words[3],
      window: Int(words[4]) ?? 8)
  case ("follower", "2") where words.count == 5:
    try follower(
      CounterV2.State.self, registry: CounterV2.registry, leader: words[2], client: words[3],
      window: Int(words[4]) ?? 8)
  default:
    FileHandle.standardError.write(
      Data("usage: rolling-upgrade-helper leader 1|2 CONTROL UPDATES JOURNAL\n".utf8))
    FileHandle.standardError.write(
      Data("       rolling-upgrade-helper follower 1|2 LEADER CLIENT-ID WINDOW\n".utf8))
    exit(64)
  }
} catch {
  FileHandle.standardError.write(Data("rolling-upgrade-helper: \(error)\n".utf8))
  exit(1)
}
