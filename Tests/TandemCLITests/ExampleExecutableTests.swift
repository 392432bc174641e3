import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The example executables, `counter` and `github-browser`, run as processes on input they
/// must refuse or output they cannot write.
@Suite("The example executables on bad input")
struct ExampleExecutableTests {
  /// A leader that is not there: a command that joins it waits some seconds before it fails.
  static let nobody = "tcp://127.0.0.1:1"

  /// Counts whose sum overflowed `Int` trapped (signal 4) instead of being refused.
  @Test func counterFollowerRefusesCountsBeyondItsBound() async throws {
    let follower = try await TandemProcess.run(
      [
        "follower", "--leader", Self.nobody, "--increment", String(Int.max), "--notes", "1",
      ],
      executable: "counter")
    #expect(follower.status == 64)
    #expect(
      follower.error.hasPrefix(
        "counter follower: --increment takes a whole number in 0...1000000000, not '\(Int.max)'"))
  }

  /// An empty worker id trapped once the worker had joined; an API base that is not http(s) or
  /// has no host was taken, and every load failed.
  @Test(arguments: [
    (["--worker-id", ""], "--worker-id is empty"),
    (["--api-base", "httpx://example.com"], "not 'httpx://example.com'"),
    (["--api-base", "http://"], "not 'http://'"),
  ])
  func workerRefusesAnEmptyIdAndAnAPIBaseWithoutHost(
    _ arguments: [String], message: String
  ) async throws {
    let worker = try await TandemProcess.run(
      ["worker", "--leader", Self.nobody] + arguments, executable: "github-browser")
    #expect(worker.status == 64)
    #expect(worker.error.hasPrefix("github-browser worker: ") && worker.error.contains(message))
  }

  /// A malformed endpoint ended a leader with status 69, as one it could not bind; an empty
  /// journal path reached SQLite, which then complained of its journal mode.
  @Test(arguments: [
    ("counter", ["--control", "nonsense"], "'nonsense' is not an endpoint"),
    ("github-browser", ["--updates", "tcp://"], "'tcp://' is not an endpoint"),
    ("counter", ["--journal", ""], "--journal is empty"),
    ("github-browser", ["--journal", ""], "--journal is empty"),
  ])
  func leadersRefuseAMalformedEndpointAndAnEmptyJournalPath(
    executable: String, arguments: [String], message: String
  ) async throws {
    let leader = try await TandemProcess.run(["leader"] + arguments, executable: executable)
    #expect(leader.status == 64)
    #expect(leader.error.hasPrefix("\(executable) leader: \(message)"))
    #expect(leader.output.isEmpty)
  }

  /// A server whose standard output cannot be written cannot say where it serves: it served
  /// on unseen (and a parent waiting for that line waited for good) until it was killed.
  @Test(arguments: [
    ("counter", ["leader"]), ("github-browser", ["leader"]), ("github-browser", ["fixture-api"]),
  ])
  func aServerThatCannotPrintWhereItServesStopsWithStatus74(
    executable: String, arguments: [String]
  ) async throws {
    let server = try await TandemProcess.run(
      arguments, executable: executable, standardOutput: try Self.readOnly(),
      limit: .seconds(30))
    #expect(server.status == 74)
    #expect(server.error.contains("\(executable) \(arguments[0]): cannot write to standard output"))
  }

  /// The same for the front end and the worker, which say so once they have joined a leader,
  /// and for the summary of a counter follower's load, which ended with status 0 unwritten.
  @Test func aFollowerThatCannotPrintStopsWithStatus74() async throws {
    let browser = try await ServingProcess("github-browser", ["leader"])
    for arguments in [["web"], ["worker", "--api-base", "http://127.0.0.1:1"]] {
      let follower = try await TandemProcess.run(
        arguments + ["--leader", browser.firstLine], executable: "github-browser",
        standardOutput: try Self.readOnly(), limit: .seconds(30))
      #expect(follower.status == 74)
      #expect(
        follower.error.contains(
          "github-browser \(arguments[0]): cannot write to standard output"))
    }
    browser.stop()

    let counter = try await ServingProcess("counter", ["leader"])
    let load = try await TandemProcess.run(
      ["follower", "--leader", counter.firstLine, "--increment", "2"], executable: "counter",
      standardOutput: try Self.readOnly())
    #expect(load.status == 74)
    #expect(load.error.contains("counter follower: cannot write to standard output"))
    counter.stop()
  }

  /// The status file is written to a temporary file renamed over the path: a FIFO or a device
  /// there was replaced by a regular file, and a directory or a missing directory left no file
  /// at all, while the follower ended with status 0.
  @Test func counterFollowerRefusesAStatusFileItCannotWrite() async throws {
    let directory = NSTemporaryDirectory() + "tandem-status-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/status.fifo"
    try #require(mkfifo(fifo, 0o600) == 0)
    let leader = try await ServingProcess("counter", ["leader"])
    for (path, reason) in [
      (fifo, "it is a FIFO, device or socket"), (directory, "it is a directory"),
      (directory + "/missing/status.json", "its directory \(directory)/missing: No such file"),
    ] {
      let follower = try await TandemProcess.run(
        ["follower", "--leader", leader.firstLine, "--increment", "1", "--status-file", path],
        executable: "counter")
      #expect(follower.status == 74)
      #expect(
        follower.error.hasPrefix(
          "counter follower: cannot write the status file \(path): \(reason)"))
    }
    leader.stop()
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)

    let empty = try await TandemProcess.run(
      ["follower", "--leader", Self.nobody, "--increment", "1", "--status-file", ""],
      executable: "counter")
    #expect(empty.status == 64)
    #expect(empty.error.hasPrefix("counter follower: --status-file is empty"))
  }

  /// Standard output open for reading only: every write to it fails.
  static func readOnly() throws -> FileHandle {
    try #require(FileHandle(forReadingAtPath: "/dev/null"))
  }
}
