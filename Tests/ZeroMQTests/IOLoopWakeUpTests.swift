import Synchronization
import Testing

@testable import ZeroMQ

@Suite("IOLoop wake-ups", .timeLimit(.minutes(1)))
struct IOLoopWakeUpTests {
  @Test("a burst of work queued while the loop is busy costs one wake-up")
  func wakeUpsCoalesce() async throws {
    let loop = try IOLoop(name: "test-wakeups")
    let busy = Atomic<Bool>(false)
    let release = Atomic<Bool>(false)
    let ran = Atomic<Int>(0)
    loop.execute { _ in
      busy.store(true, ordering: .releasing)
      // Hold the loop until the burst below is queued (a bounded wait on a condition).
      while !release.load(ordering: .acquiring) {}
    }
    while !busy.load(ordering: .acquiring) { await Task.yield() }
    #expect(loop.wakeUpCount == 1)
    for _ in 0..<1_000 {
      loop.execute { _ in ran.add(1, ordering: .relaxed) }
    }
    #expect(loop.wakeUpCount == 2)
    release.store(true, ordering: .releasing)
    try await loop.submit { _ in }
    #expect(ran.load(ordering: .relaxed) == 1_000)
    await loop.shutdown()
  }

  @Test("a wake-up byte that no take reports is drained at the next wake, not spun on")
  func strayWakeUpCostsOneTurn() async throws {
    let loop = try IOLoop(name: "test-stray-wakeup")
    let turns = try await withCheckedThrowingContinuation { continuation in
      loop.execute { scope in
        let start = scope.turns
        // A byte in the pipe with no wake-up recorded, as when a job is queued between a take
        // and the drain after it.
        scope.core.wakePipe.signal()
        scope.schedule(after: .milliseconds(100)) {
          continuation.resume(returning: scope.turns - start)
        }
      }
    }
    #expect(turns <= 5, "the loop turned \(turns) times in 100 ms with nothing to do")
    await loop.shutdown()
  }

  @Test("a busy turn asks only the sockets it used, and an unused one still gets its message")
  func busyTurnsAskOnlyUsedSockets() async throws {
    let loop = try IOLoop(name: "test-ask-used")
    let received = Atomic<Int>(0)
    let (busy, quiet) = try await loop.submit { scope in
      let busy = try scope.makeSocket(.pair)
      try busy.bind(.inproc("test-ask-used-busy"))
      scope.register(busy) { socket in
        while (try? socket.receive(wait: .nonBlocking)) != nil {}
      }
      let quiet = try scope.makeSocket(.pair)
      try quiet.bind(.inproc("test-ask-used-quiet"))
      scope.register(quiet) { socket in
        while (try? socket.receive(wait: .nonBlocking)) != nil {
          received.add(1, ordering: .relaxed)
        }
      }
      return (LoopBound(busy, scope: scope), LoopBound(quiet, scope: scope))
    }
    // Busy turns: each job uses the busy socket. The quiet one, asked once after it was
    // registered, is not asked again: nothing used it, so its descriptor still signals.
    let before = try await loop.submit { _ in quiet.value.uses }
    for _ in 0..<20 {
      try await loop.submit { _ in _ = try busy.value.send("ping", wait: .nonBlocking) }
    }
    let after = try await loop.submit { _ in quiet.value.uses }
    #expect(after == before, "the quiet socket was asked \(after - before) times")
    let peer = try Socket(loop.context, .pair)
    defer { peer.close() }
    try peer.connect(.inproc("test-ask-used-quiet"))
    try peer.send("to the quiet socket")
    try await waitUntil { received.load(ordering: .relaxed) == 1 }
    #expect(received.load(ordering: .relaxed) == 1)
    await loop.shutdown()
  }

  @Test("reading a LoopBound off its loop thread traps")
  func loopBoundTrapsOffLoop() async {
    await #expect(processExitsWith: .failure) {
      let loop = try IOLoop(name: "test-trap")
      let bound = try await loop.submit { scope in LoopBound(1, scope: scope) }
      _ = bound.value
    }
  }
}

@Suite("IOLoop defaults", .timeLimit(.minutes(1)))
struct IOLoopDefaultsTests {
  @Test("a loop's default context gives sockets a zero linger, so shutdown never hangs")
  func zeroLingerByDefault() async throws {
    let loop = try IOLoop(name: "test-linger")
    let linger = try await loop.submit { scope in
      let dealer = try scope.makeSocket(.dealer)
      try dealer.connect(.tcp(host: "127.0.0.1", port: 9))
      _ = try dealer.send("queued for a peer that never comes", wait: .nonBlocking)
      return try dealer.get(.linger)
    }
    #expect(linger == .zero)
    await loop.shutdown()
  }
}
