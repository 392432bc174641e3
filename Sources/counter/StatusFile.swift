import CommandLineKit
import CounterExample
import Foundation
import StatePatch
import Synchronization
import TandemSync

/// A follower's status as a JSON file, rewritten (atomically) every 100 ms and once more at exit,
/// for scripts that watch a follower from outside: its statistics, its state (also as canonical
/// JSON text, to compare byte for byte with `tandem snapshot --json`) and its load report.
///
/// Writes run one at a time under `finished`: a periodic write still in progress when ``finish()``
/// is called completes before the final one, and none starts after it, so nothing replaces the
/// file that says `"done": true`.
final class StatusFile: Sendable {
  private let path: String
  private let follower: Follower<CounterState>
  private let report = Mutex<CounterLoadReport?>(nil)
  private let finished = Mutex(false)

  init(path: String, follower: Follower<CounterState>) {
    self.path = path
    self.follower = follower
  }

  /// Checks, before anything starts, that a status file can be written at `path`: the path is
  /// not empty, names a regular file or nothing yet (the file is replaced at every write, so a
  /// directory, a FIFO or a device such as `/dev/null` would be replaced by it), and its
  /// directory can be written.
  ///
  /// - Throws: a ``UsageError`` for an empty path, a failure with status 74 (``ExitStatus/ioError``)
  ///   otherwise, with a message saying why.
  static func check(_ path: String) throws {
    guard !path.isEmpty else {
      throw UsageError("--status-file is empty: give the path of the file to write")
    }
    func refuse(_ reason: String) -> CommandFailure {
      CommandFailure(.ioError, "cannot write the status file \(path): \(reason)")
    }
    var status = stat()
    if stat(path, &status) == 0 {
      let type = status.st_mode & S_IFMT
      guard type == S_IFREG else {
        throw refuse(
          type == S_IFDIR
            ? "it is a directory" : "it is a FIFO, device or socket, which the file would replace")
      }
    }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard access(directory, W_OK) == 0 else {
      throw refuse("its directory \(directory): \(String(cString: strerror(errno)))")
    }
  }

  /// Starts rewriting the file every 100 ms on a thread of its own.
  func start() {
    let thread = Thread { [self] in
      while writeUnlessFinished() {
        usleep(100_000)
      }
    }
    thread.name = "counter-status"
    thread.start()
  }

  /// Records the load's outcome for the next write.
  func record(_ outcome: CounterLoadReport) {
    report.withLock { $0 = outcome }
  }

  /// Writes the file a last time with `"done": true` and stops the periodic writes.
  func finish() {
    finished.withLock { finished in
      finished = true
      try? write(done: true)
    }
  }

  /// Writes the file with `"done": false`, or returns false without writing once ``finish()`` ran.
  private func writeUnlessFinished() -> Bool {
    finished.withLock { finished in
      guard !finished else { return false }
      try? write(done: false)
      return true
    }
  }

  private func write(done: Bool) throws {
    let follower = self.follower
    // A state and a sequence that belong together: read the sequence around the state until it
    // did not move.
    var (statistics, state) = try blockingAsync {
      (try await follower.statistics(), follower.store.state!)
    }
    for _ in 0..<10 {
      let again = try blockingAsync { try await follower.statistics() }
      if again.sequence == statistics.sequence { break }
      statistics = again
      state = follower.store.state
    }
    var encoder = StateEncoder()
    let stateJSON = try encoder.encode(state)
    var members: [(key: String, value: JSONValue)] = [
      ("client", .string(follower.clientID)),
      ("sequence", .int(Int64(statistics.sequence))),
      ("statistics", try encoder.encode(statistics)),
      ("state", stateJSON),
      ("canonicalState", .string(stateJSON.canonicalText)),
      ("done", .bool(done)),
    ]
    if let report = report.withLock({ $0 }) {
      members.append(("load", try encoder.encode(report)))
    }
    let bytes = JSONValue.object(JSONObject(members)).canonicalBytes() + [UInt8(ascii: "\n")]
    try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
