import Foundation
import TandemSync
import Testing

/// The `tandem` executable run as a process, on input it must refuse or output it cannot write.
@Suite("The tandem executable on bad input")
struct ExecutableTests {
  @Test func outputThatCannotBeWrittenEndsWithStatus74() async throws {
    let leader = try await makeShelfLeader()
    // Standard output open for reading only: every write to it fails.
    let readOnly = try #require(FileHandle(forReadingAtPath: "/dev/null"))
    let snapshot = try await TandemProcess.run(
      ["snapshot", "--leader", leader.controlEndpoint], standardOutput: readOnly)
    #expect(snapshot.status == 74)
    #expect(snapshot.error.contains("tandem snapshot: cannot write to standard output"))

    let dispatch = try await TandemProcess.run(
      [
        "dispatch", "--leader", leader.controlEndpoint, "--type", "shelf.add", "--json",
        #"{"title": "Dune"}"#,
      ],
      standardOutput: readOnly)
    #expect(dispatch.status == 74)
    // The sequence that could not be printed is in the message.
    #expect(dispatch.error.contains("the leader applied the action at sequence 1, but cannot"))
    #expect(leader.store.state.books == ["Dune"])
    await leader.stop()
  }

  @Test(arguments: [["--help"], ["snapshot", "--help"], ["journal", "verify", "--help"]])
  func helpThatCannotBeWrittenEndsWithStatus74(_ arguments: [String]) async throws {
    let readOnly = try #require(FileHandle(forReadingAtPath: "/dev/null"))
    let help = try await TandemProcess.run(arguments, standardOutput: readOnly)
    #expect(help.status == 74)
    #expect(help.error.contains(": cannot write to standard output: "))
  }

  @Test(arguments: ["inspect", "verify", "compact"])
  func aJournalPathThatIsEmptyOrADirectoryIsRefusedAsSuch(_ command: String) async throws {
    let empty = try await TandemProcess.run(["journal", command, "--db", ""])
    #expect(empty.status == 64)
    #expect(empty.error.hasPrefix("tandem journal \(command): --db is empty"))

    let directory = NSTemporaryDirectory() + "tandem-journal-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let refused = try await TandemProcess.run(["journal", command, "--db", directory])
    #expect(refused.status == 1)
    #expect(
      refused.error
        .hasPrefix(
          "tandem journal \(command): \(directory) is not a Tandem journal (it is a directory)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  /// Opening a FIFO waits for a writer: a journal command given one waited for good.
  @Test(arguments: ["inspect", "verify", "compact"])
  func aJournalPathThatIsAFIFOIsRefusedAsSuch(_ command: String) async throws {
    let directory = NSTemporaryDirectory() + "tandem-journal-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/leader.journal"
    try #require(mkfifo(fifo, 0o600) == 0)
    let refused = try await TandemProcess.run(
      ["journal", command, "--db", fifo], limit: .seconds(30))
    #expect(refused.status == 1)
    #expect(
      refused.error
        .hasPrefix(
          "tandem journal \(command): \(fifo) is not a Tandem journal (it is a FIFO, device or "
            + "socket, not a file)"))
  }

  /// Benchmark options that name nothing the benchmark has, or a size it cannot use, are
  /// refused before anything runs (the benchmark ran without them before).
  @Test(arguments: [
    (["store", "--only", "a,nope", "--runs", "1", "--millis", "1"], "unknown workload 'nope'"),
    (["store", "--only", ","], "--only names no workload"),
    (["patch", "--sizes", "100,abc", "--runs", "1"], "not 'abc'"),
    (["failover", "--db", "sqlite"], "standby leaders share a PostgreSQL journal"),
    (["failover", "--lease-ms", "100"], "--lease-ms takes a whole number in 300...60000"),
  ])
  func benchmarkOptionsAreCheckedWhole(_ arguments: [String], message: String) async throws {
    let bench = try await TandemProcess.run(["bench"] + arguments)
    #expect(bench.status == 64)
    #expect(
      bench.error.hasPrefix("tandem bench \(arguments[0]): ") && bench.error.contains(message))
    #expect(bench.output.isEmpty)
  }

  /// `tandem bench failover --help` names every option (not the hidden one of its leader
  /// processes) and the lease its targets are for.
  @Test func failoverBenchmarkHelpNamesEveryOption() async throws {
    let help = try await TandemProcess.run(["bench", "failover", "--help"])
    #expect(help.status == 0)
    for option in ["--kills", "--lease-ms", "--window", "--silence-ms", "--heartbeat-ms", "--db"] {
      #expect(help.output.contains(option), "bench failover --help does not mention \(option)")
    }
    #expect(!help.output.contains("--leader-process"))
    #expect(help.output.contains("a lease of 1.5 s"))
  }

  /// A benchmark's scratch directory must exist: it was created (journal) or failed late with
  /// an errno (journal-store).
  @Test(arguments: [
    ["journal-store", "--dir"], ["journal", "--runs", "1", "--actions", "100", "--directory"],
  ])
  func aScratchDirectoryThatDoesNotExistIsRefused(_ arguments: [String]) async throws {
    let parent = NSTemporaryDirectory() + "tandem-bench-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let missing = parent + "/missing"
    let bench = try await TandemProcess.run(["bench"] + arguments + [missing])
    #expect(bench.status == 64)
    #expect(
      bench.error.hasPrefix(
        "tandem bench \(arguments[0]): \(arguments.last!) takes a directory that exists, not "
          + "'\(missing)'"))
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// The helper processes of the benchmarks check their role and endpoint before anything else:
  /// a zmq peer trapped on an endpoint it could not parse, and a sync worker of an unknown role
  /// waited for its leader first (10 s for one that is not there).
  @Test(arguments: [
    (["zmq", "--peer", "publish-swift", "--endpoint", "nonsense"], "not an endpoint"),
    (["sync", "--worker", "nope", "--leader", "tcp://127.0.0.1:1"], "unknown worker role 'nope'"),
    (["failover", "--leader-process", "a1", "--journal", "dbname=x"], "missing --control"),
  ])
  func aHelperRefusesARoleOrEndpointItCannotUse(
    _ arguments: [String], message: String
  ) async throws {
    let helper = try await TandemProcess.run(["bench"] + arguments)
    #expect(helper.status == 64)
    #expect(
      helper.error.hasPrefix("tandem bench \(arguments[0]): ") && helper.error.contains(message))
  }
}
