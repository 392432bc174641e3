#if os(Linux)
  import Foundation
  import Testing

  /// `tandem bench` run as a process (the `tandem` executable that `swift build --build-tests`
  /// and `swift test` build beside the tests): its helper processes end with it.
  @Suite("Helper processes of tandem bench", .serialized)
  struct BenchHelperTests {
    /// Benchmarks that run far longer than a test, each starting a helper that would go on
    /// working (or waiting for its leader) if it were left behind; and how each is stopped.
    /// (SIGINT is taken as SIGTERM is.)
    static let zmq = ["zmq", "--runs", "1", "--messages", "100000000"]
    static let sync = ["sync", "--parts", "latency", "--runs", "1", "--round-trips", "1000000"]
    static let journal = ["journal", "--runs", "1", "--actions", "10000000"]
    static let failover = ["failover", "--kills", "1000"]

    @Test(
      arguments: zip(
        [zmq, sync, sync, journal, failover], [SIGTERM, SIGTERM, SIGKILL, SIGTERM, SIGTERM]))
    func theHelperEndsWithTheBenchmark(_ benchmark: [String], signal: Int32) async throws {
      // What a stopped benchmark leaves in its temporary directory goes with the test's own.
      let temporary = NSTemporaryDirectory() + "tandem-bench-test-" + UUID().uuidString
      try FileManager.default.createDirectory(
        atPath: temporary, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: temporary) }
      let bench = try startTandem(["bench"] + benchmark, temporaryDirectory: temporary)
      // A helper with threads of its own is past its start-up (where it sets its death signal).
      let helper = await poll(for: .seconds(30)) {
        children(of: bench).first { (status(of: $0)?.threads ?? 0) > 1 }
      }
      guard let helper else {
        end(bench)
        Issue.record("tandem bench \(benchmark[0]) started no helper process")
        return
      }

      kill(bench, signal)
      let ending = await poll(for: .seconds(10)) { () -> Int32? in
        var status: Int32 = 0
        return waitpid(bench, &status, WNOHANG) == bench ? status : nil
      }
      if ending == nil { end(bench) }
      // A wait status: the exit status above the low 8 bits, or the signal in the low 7.
      #expect(ending == (signal == SIGKILL ? SIGKILL : (128 + signal) << 8))
      let helperGone = await poll(for: .seconds(5)) { isRunning(helper) ? nil : true } ?? false
      #expect(helperGone, "helper \(helper) outlived tandem bench (signal \(signal))")
      if !helperGone { kill(helper, SIGKILL) }
    }
  }

  /// The processes whose parent is `parent`.
  private func children(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(pid_t.init).filter { status(of: $0)?.parent == parent }
  }

  /// Whether `process` exists and has not exited (a zombie waiting to be reaped has exited).
  private func isRunning(_ process: pid_t) -> Bool {
    guard let state = status(of: process)?.state else { return false }
    return state != "Z" && state != "X"
  }

  /// A process's state letter, parent and number of threads, from `/proc/<pid>/stat`:
  /// `pid (name) state ppid ...` (proc(5)), where the name may hold spaces and parentheses.
  private func status(of process: pid_t) -> (state: Character, parent: pid_t, threads: Int)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
      let nameEnd = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
    guard fields.count > 17, let state = fields[0].first, let parent = pid_t(fields[1]),
      let threads = Int(fields[17])
    else { return nil }
    return (state, parent, threads)
  }
#endif
