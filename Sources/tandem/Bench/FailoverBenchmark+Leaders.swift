import Foundation

extension FailoverBenchmark {
  /// The benchmark's two leader processes, in slots `a` and `b`: each start in a slot is a new
  /// process with the next leader id of the slot (`a1`, `a2`...), binding the slot's `ipc://`
  /// endpoints in the benchmark's folder.
  struct LeaderProcesses {
    let folder: String
    let journal: String
    let leaseMilliseconds: Int
    let heartbeatMilliseconds: Int
    /// The process running in each slot, with its leader id.
    private var running: [String: (id: String, process: ChildProcess)] = [:]
    /// How many processes each slot started.
    private var starts: [String: Int] = [:]

    init(folder: String, journal: String, leaseMilliseconds: Int, heartbeatMilliseconds: Int) {
      self.folder = folder
      self.journal = journal
      self.leaseMilliseconds = leaseMilliseconds
      self.heartbeatMilliseconds = heartbeatMilliseconds
    }

    /// Both slots' control endpoints, as the followers are given them.
    var controlEndpoints: [String] { ["a", "b"].map { endpoints($0).control } }

    /// The slot of the leader id `id`.
    static func slot(of id: String) -> String { String(id.prefix(1)) }

    /// Starts the next process of `slot` (which runs none).
    mutating func start(_ slot: String) throws {
      precondition(running[slot] == nil, "slot \(slot) runs a leader process already")
      starts[slot, default: 0] += 1
      let id = "\(slot)\(starts[slot]!)"
      let process = try FailoverBenchmarkLeader.start(
        id, endpoints: endpoints(slot), journal: journal, leaseMilliseconds: leaseMilliseconds,
        heartbeatMilliseconds: heartbeatMilliseconds)
      running[slot] = (id, process)
    }

    /// Whether the leader process `id` is the one running in its slot.
    func isRunning(_ id: String) -> Bool { running[Self.slot(of: id)]?.id == id }

    /// Kills the leader process `id` with SIGKILL and waits until it has exited.
    mutating func kill(_ id: String) {
      guard let (_, process) = running.removeValue(forKey: Self.slot(of: id)) else { return }
      process.end(by: SIGKILL)
    }

    /// Throws (with its exit status) if a leader process has exited by itself.
    func checkRunning() throws {
      for (_, process) in running.values where process.hasFailed { _ = try process.finish() }
    }

    /// Ends every running leader process (SIGTERM) and waits for it.
    mutating func endAll() {
      for (_, process) in running.values { process.end(by: SIGTERM) }
      running.removeAll()
    }

    private func endpoints(_ slot: String) -> (control: String, updates: String) {
      ("ipc://\(folder)/\(slot)-control", "ipc://\(folder)/\(slot)-updates")
    }
  }
}
