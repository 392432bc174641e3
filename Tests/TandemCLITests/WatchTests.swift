import CommandLineKit
import Foundation
import Tandem
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

@Suite("tandem watch says when it loses the leader", .serialized)
struct WatchTests {
  /// The leader the status line tests name, and two of its histories.
  let endpoint = "ipc:///run/leader"
  let oldEpoch = Epoch(rawValue: 0xA)
  let newEpoch = Epoch(rawValue: 0xB)

  /// A watch run in a task, what it writes to standard output and standard error, line by
  /// line, and its follower.
  struct Watching {
    var output: AsyncStream<String>.Iterator
    var status: AsyncStream<String>.Iterator
    let run: Task<Void, any Error>
    let follower: JSONFollower
  }

  /// A watch of the leader at `control` with `arguments`, its follower configured by
  /// `configure`, once it has said it is under way.
  func watch(
    _ control: String, _ arguments: [String],
    configure: (inout FollowerConfiguration) -> Void = { _ in }
  ) async throws -> Watching {
    let options = try ReadOptions(arguments: ["--leader", control] + arguments, forWatch: true)
    var configuration = FollowerConfiguration(leader: control)
    configuration.silenceLimit = .seconds(1)
    configuration.reconnectDelay = .milliseconds(20)
    configure(&configuration)
    let follower = try await JSONFollower(configuration: configuration)
    let (output, outputLines) = AsyncStream.makeStream(of: String.self)
    let (status, statusLines) = AsyncStream.makeStream(of: String.self)
    let run = Task {
      do {
        try await Watch(options: options).run(
          follower, output: { outputLines.yield($0) }, status: { statusLines.yield($0) })
      } catch {
        await follower.stop()
        throw error
      }
      await follower.stop()
    }
    var statusIterator = status.makeAsyncIterator()
    let first = await statusIterator.next()
    #expect(first?.hasPrefix("watching epoch") == true, "\(first ?? "no line")")
    return Watching(
      output: output.makeAsyncIterator(), status: statusIterator, run: run, follower: follower)
  }

  /// The end of the watch `run`; the test's cancellation (at its time limit) cancels it.
  func end(of run: Task<Void, any Error>) async throws {
    try await withTaskCancellationHandler {
      try await run.value
    } onCancel: {
      run.cancel()
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aLostLeaderIsReportedOnceAndTheWatchGoesOnWhenItIsBack() async throws {
    // ipc endpoints in a directory of the test's own: the restarted leader binds them again,
    // where a tcp port may have been taken meanwhile.
    let directory =
      NSTemporaryDirectory() + "tandem-watch-" + FollowerConfiguration.randomClientID()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (control, updates) = ("ipc://\(directory)/control", "ipc://\(directory)/updates")
    let leader = try await makeShelfLeader {
      $0.control = control
      $0.updates = updates
    }
    var watching = try await watch(control, ["--count", "2"])
    leader.store.dispatch(AddBook(title: "Dune"))
    #expect(await watching.output.next()?.hasPrefix("#1 shelf.add from leader") == true)
    await leader.stop()
    let lost = await watching.status.next()
    #expect(lost?.hasPrefix("tandem watch: lost the leader at \(control) (") == true)
    #expect(lost?.hasSuffix("; reconnecting") == true, "\(lost ?? "no line")")
    // A leader without a journal comes back with a new history. The next line says so: the
    // attempts to reconnect while it was away added none.
    let restarted = try await makeShelfLeader {
      $0.control = control
      $0.updates = updates
    }
    #expect(
      await watching.status.next()
        == "tandem watch: reconnected to the leader at \(control) at sequence 0 of a new history "
        + "(epoch \(restarted.epoch); the watch followed epoch \(leader.epoch))")
    restarted.store.dispatch(AddBook(title: "Emma"))
    #expect(
      await watching.output.next()
        == DeltaReport().resync(epoch: restarted.epoch, from: 1, to: 0))
    #expect(await watching.output.next()?.hasPrefix("#1 shelf.add from leader") == true)
    try await end(of: watching.run)
    await restarted.stop()
  }

  @Test func theStatusLinesNameTheLeaderTheReasonAndTheSequence() throws {
    let watch = try Watch(options: ReadOptions(arguments: ["--leader", endpoint], forWatch: true))
    #expect(
      try watch.statusLine(
        for: .lost(reason: "the leader is stopping"), following: oldEpoch, lost: false)
        == "tandem watch: lost the leader at ipc:///run/leader (the leader is stopping); "
        + "reconnecting")
    #expect(
      try watch.statusLine(
        for: .connected(epoch: oldEpoch, sequence: 9), following: oldEpoch, lost: true)
        == "tandem watch: reconnected to the leader at ipc:///run/leader at sequence 9")
    #expect(
      try watch.statusLine(
        for: .connected(epoch: newEpoch, sequence: 0), following: oldEpoch, lost: true)
        == "tandem watch: reconnected to the leader at ipc:///run/leader at sequence 0 of a new "
        + "history (epoch 000000000000000b; the watch followed epoch 000000000000000a)")
    // The connection as the watch began needs no line.
    #expect(
      try watch.statusLine(
        for: .connected(epoch: oldEpoch, sequence: 4), following: oldEpoch, lost: false)
        == nil)
  }

  @Test func aNewHistoryWithoutALossIsReportedAsARestart() throws {
    let watch = try Watch(options: ReadOptions(arguments: ["--leader", endpoint], forWatch: true))
    let restart = FollowerConnection.connected(epoch: newEpoch, sequence: 3)
    let message =
      "the leader at ipc:///run/leader restarted with a new history (epoch 000000000000000a -> "
      + "000000000000000b, at sequence 3)"
    #expect(
      try watch.statusLine(for: restart, following: oldEpoch, lost: false) == "tandem watch: "
        + message)
    // With --exit-on-loss the continuity the watch asked for is broken: it ends, with that line.
    let exiting = try Watch(
      options: ReadOptions(arguments: ["--leader", endpoint, "--exit-on-loss"], forWatch: true))
    #expect(throws: CommandFailure(.unavailable, message)) {
      try exiting.statusLine(for: restart, following: oldEpoch, lost: false)
    }
    #expect(throws: CommandFailure(.unavailable, "lost the leader at \(endpoint) (silent)")) {
      try exiting.statusLine(for: .lost(reason: "silent"), following: oldEpoch, lost: false)
    }
  }

  @Test func aFollowerThatStoppedByItselfEndsTheWatchWithWhy() throws {
    let watch = try Watch(options: ReadOptions(arguments: ["--leader", endpoint], forWatch: true))
    #expect(watch.failure(stoppedBy: nil) == nil)
    #expect(watch.failure(stoppedBy: .stopped) == nil)
    let refused = FollowerError.refused(code: .version, message: "this leader speaks TSP/9")
    #expect(
      watch.failure(stoppedBy: refused)
        == CommandFailure(
          .protocolError,
          "stopped following the leader at ipc:///run/leader: the leader refused this follower "
            + "(version): this leader speaks TSP/9"))
    #expect(watch.failure(stoppedBy: .invalidEndpoint("x"))?.status == .unavailable)
  }

  @Test(.timeLimit(.minutes(1)))
  func aWatchWhoseClientIDAnotherProcessTookEndsWithStatus76() async throws {
    let leader = try await makeShelfLeader()
    let control = leader.controlEndpoint
    let clientID = "tandem-watch-" + FollowerConfiguration.randomClientID()
    var watching = try await watch(control, []) { $0.clientID = clientID }
    leader.store.dispatch(AddBook(title: "Dune"))
    #expect(await watching.output.next()?.hasPrefix("#1 shelf.add from leader") == true)
    // Another process says HELLO with the watch's client id: the leader refuses the watch's
    // next action as superseded, and its follower stops.
    let other = try await JSONFollower(
      configuration: {
        var configuration = FollowerConfiguration(leader: control)
        configuration.clientID = clientID
        return configuration
      }())
    _ = try watching.follower.send(tag: "shelf.add", payload: ["title": "Emma"])
    await #expect {
      try await end(of: watching.run)
    } throws: { error in
      guard let failure = error as? CommandFailure else { return false }
      return failure.status == .protocolError
        && failure.message.hasPrefix(
          "stopped following the leader at \(control): the leader refused this follower "
            + "(superseded): ")
    }
    await other.stop()
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func withExitOnLossTheWatchEndsWithStatus69() async throws {
    let leader = try await makeShelfLeader()
    let control = leader.controlEndpoint
    let watching = try await watch(control, ["--exit-on-loss"])
    await leader.stop()
    // The failure's message is the line that says so.
    await #expect {
      try await end(of: watching.run)
    } throws: { error in
      guard let failure = error as? CommandFailure else { return false }
      return failure.status == .unavailable
        && failure.message.hasPrefix("lost the leader at \(control) (")
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aDeltaThatCannotBeWrittenEndsTheWatch() async throws {
    let leader = try await makeShelfLeader()
    let follower = try await JSONFollower(
      configuration: FollowerConfiguration(leader: leader.controlEndpoint))
    let watch = try Watch(
      options: ReadOptions(arguments: ["--leader", leader.controlEndpoint], forWatch: true))
    let unwritable = CommandFailure(.ioError, "cannot write to standard output: disk full")
    let (status, statusLines) = AsyncStream.makeStream(of: String.self)
    let run = Task {
      try await watch.run(
        follower, output: { _ in throw unwritable }, status: { statusLines.yield($0) })
    }
    var lines = status.makeAsyncIterator()
    #expect(await lines.next()?.hasPrefix("watching epoch") == true)
    leader.store.dispatch(AddBook(title: "Dune"))
    await #expect(throws: unwritable) { try await end(of: run) }
    await follower.stop()
    await leader.stop()
  }
}
