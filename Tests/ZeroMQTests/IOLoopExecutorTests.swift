import Synchronization
import Testing

@testable import ZeroMQ

@Suite("IOLoop as a task executor", .timeLimit(.minutes(1)))
struct IOLoopExecutorTests {
  @Test("a task that prefers the loop runs on its thread, before and after it suspends")
  func taskRunsOnTheLoopThread() async throws {
    let loop = try IOLoop(name: "test-executor")
    let threads = try await withTaskExecutorPreference(loop) {
      let before = loop.inLoopThread
      let inJob = try await loop.submit { _ in loop.inLoopThread }
      let after = loop.inLoopThread
      await Task.yield()
      return [before, inJob, after, loop.inLoopThread]
    }
    #expect(threads == [true, true, true, true])
    #expect(!loop.inLoopThread)
    await loop.shutdown()
  }

  @Test("work queued from the loop thread runs without a wake-up through the pipe")
  func workFromTheLoopThreadNeedsNoWakeUp() async throws {
    let loop = try IOLoop(name: "test-executor-wakeups")
    try await loop.submit { _ in }
    let before = loop.wakeUpCount
    let (ran, wakeUps) = try await withTaskExecutorPreference(loop) {
      var ran = 0
      for _ in 0..<100 {
        try await loop.submit { _ in }
        ran += 1
      }
      return (ran, loop.wakeUpCount)
    }
    #expect(ran == 100)
    // The task itself started with one wake-up; none of its hundred hand-overs needed one.
    #expect(wakeUps - before <= 1)
    await loop.shutdown()
  }

  @Test("jobs queued by a job run in the same turn, for a bounded number of rounds")
  func followUpJobsRunInTheSameTurn() async throws {
    let loop = try IOLoop(name: "test-executor-follow-ups")
    let turns = Mutex<[Int]>([])
    // Each job of the chain records its turn and queues the next, from the loop thread.
    @Sendable func chain(_ remaining: Int, _ scope: LoopScope) {
      turns.withLock { $0.append(scope.turns) }
      if remaining > 0 { loop.execute { chain(remaining - 1, $0) } }
    }
    try await loop.submit { chain(99, $0) }
    try await waitUntil { turns.withLock { $0.count } == 100 }
    let recorded = turns.withLock { $0 }
    #expect(Set(recorded.prefix(3)).count == 1)
    let spanned = recorded.last! - recorded.first! + 1
    #expect(spanned > 1, "a chain that keeps queuing must let the loop look at its sockets")
    #expect(spanned <= 100 / LoopScope.followUpRounds + 2)
    await loop.shutdown()
  }

  @Test("a task that prefers a loop that shuts down still finishes, on the global executor")
  func taskOutlivesTheLoop() async throws {
    let loop = try IOLoop(name: "test-executor-shutdown")
    let parked = Atomic<Bool>(false)
    let outcome = Mutex<(sum: Int, onLoop: Bool)?>(nil)
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    Task {
      await withTaskExecutorPreference(loop) {
        parked.store(true, ordering: .releasing)
        var sum = 0
        for await value in stream { sum += value }
        outcome.withLock { $0 = (sum, loop.inLoopThread) }
      }
    }
    while !parked.load(ordering: .acquiring) { await Task.yield() }
    continuation.yield(1)
    await loop.shutdown()
    // The loop no longer accepts jobs: resuming the task must not lose it.
    continuation.yield(2)
    continuation.finish()
    // A lost task never finishes: wait for it at most ten seconds.
    try await waitUntil { outcome.withLock { $0 } != nil }
    let finished = try #require(outcome.withLock { $0 })
    #expect(finished.sum == 3)
    #expect(!finished.onLoop)
  }
}
