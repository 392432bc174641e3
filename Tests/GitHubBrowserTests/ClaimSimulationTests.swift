import GitHubBrowser
import Testing

/// Workers racing for loads through one ordered action log, as they would through a leader.
@Suite struct ClaimSimulationTests {
  /// A deterministic generator (SplitMix64).
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  struct Worker {
    var id: String
    var working: (load: Int, until: Int64)?
    var alive = true
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func noLoadIsPerformedTwiceAndDeadWorkersAreTakenOver(seed: UInt64) {
    var random = Generator(state: seed)
    var state = BrowserState()
    for page in 1...12 {
      browserReducer(
        &state, .requestLoad(.repositories(.owner("o\(page)"), page: 1), session: "s\(page)"))
    }
    var workers = (1...3).map { Worker(id: "w\($0)") }
    var performedBy: [Int: [String]] = [:]
    var now: Int64 = 0
    let lease: Int64 = 1000

    for _ in 0..<2000 where !state.loads.isEmpty {
      now += Int64(1 + random.next(50))
      // Every live worker acts once per step, in an order that changes from step to step.
      let first = random.next(workers.count)
      for offset in 0..<workers.count {
        let index = (first + offset) % workers.count
        var worker = workers[index]
        guard worker.alive else { continue }
        if let work = worker.working {
          if now >= work.until {
            // Finished within the lease (the step is at most 50 ms): report the result.
            let result = LoadResult(.repositories(RepositoryPage(repositories: [])))
            browserReducer(
              &state, .completeLoad(id: work.load, workerID: worker.id, result: result))
            worker.working = nil
          } else if index != 0 && random.next(40) == 0 {
            // The worker dies mid-load; its claim must be taken over after the lease.
            worker.alive = false
          }
        } else if let load = state.claimableLoads(at: now).first {
          browserReducer(
            &state, .claimLoad(id: load.id, workerID: worker.id, now: now, expiresAt: now + lease))
          if state.load(load.id)?.isClaimed(by: worker.id, at: now) == true {
            performedBy[load.id, default: []].append(worker.id)
            worker.working = (load.id, now + Int64(1 + random.next(Int(lease) - 100)))
          }
        }
        workers[index] = worker
      }
    }

    #expect(state.loads.isEmpty, "every load completes, dead workers' loads included")
    #expect(state.list(for: .owner("o1")).status == .loaded)
    let dead = Set(workers.filter { !$0.alive }.map(\.id))
    for (load, performers) in performedBy {
      // A load is performed again only after its performer died.
      for earlier in performers.dropLast() {
        #expect(dead.contains(earlier), "load \(load) performed by \(performers)")
      }
    }
  }
}
