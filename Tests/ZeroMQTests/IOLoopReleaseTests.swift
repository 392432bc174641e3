import Foundation
import Synchronization
import Testing
import ZeroMQ

@Suite("Releasing a running IOLoop", .timeLimit(.minutes(1)))
struct IOLoopReleaseTests {
  @Test("a loop released off its thread is shut down before the release returns")
  func releaseOffTheLoopThread() async throws {
    let before = openFileDescriptorCount()
    for _ in 0..<100 {
      var loop: IOLoop? = try IOLoop(name: "test-release")
      _ = try await loop?.submit(Self.connectedPair)
      loop = nil
    }
    let after = openFileDescriptorCount()
    // As in the shutdown test: 100 leaking loops would hold at least 500 descriptors.
    #expect(after - before < 300)
  }

  @Test("a loop released inside a job on its own thread ends on its own, never joined there")
  func releaseOnTheLoopThread() async throws {
    let before = openFileDescriptorCount()
    let releasedOnLoop = Atomic(0)
    for _ in 0..<50 {
      let holder = LoopHolder(try IOLoop(name: "test-release-job"))
      let gate = DispatchSemaphore(value: 0)
      do {
        let loop = try #require(holder.loop)
        _ = try await loop.submit(Self.connectedPair)
        loop.execute { _ in
          // Waits until the test's reference is gone, so that this one is the last.
          gate.wait()
          guard let last = holder.take() else { return }
          if last.inLoopThread { releasedOnLoop.add(1, ordering: .relaxed) }
        }
      }
      gate.signal()
    }
    try await waitUntil { releasedOnLoop.load(ordering: .relaxed) == 50 }
    #expect(releasedOnLoop.load(ordering: .relaxed) == 50)
    // The threads end on their own: 50 leaking loops would hold at least 250 descriptors.
    try await waitUntil { openFileDescriptorCount() - before < 150 }
    #expect(openFileDescriptorCount() - before < 150)
  }

  @Test("beginShutdown returns at once, runs its job after the queued work, then refuses work")
  func beginShutdown() async throws {
    let loop = try IOLoop(name: "test-begin-shutdown")
    let ran = Mutex<[Int]>([])
    for number in 1...10 {
      loop.execute { _ in ran.withLock { $0.append(number) } }
    }
    #expect(loop.beginShutdown { _ in ran.withLock { $0.append(0) } })
    #expect(!loop.execute { _ in })
    #expect(!loop.beginShutdown())
    await loop.shutdown()
    #expect(ran.withLock { $0 } == Array(1...10) + [0])
  }

  @Test("beginShutdown called on the loop's own thread neither blocks nor traps")
  func beginShutdownOnTheLoopThread() async throws {
    let loop = try IOLoop(name: "test-begin-shutdown-job")
    let begun = try await loop.submit { _ in loop.beginShutdown() }
    #expect(begun)
    await loop.shutdown()
    #expect(!loop.execute { _ in })
  }

  /// Makes a router with a registered handler and a dealer connected to it, both owned by the
  /// loop: what a release must close.
  @Sendable private static func connectedPair(_ scope: LoopScope) throws {
    let router = try scope.makeSocket(.router)
    let endpoint = try router.bindLoopback()
    scope.register(router) { _ in }
    let dealer = try scope.makeSocket(.dealer)
    try dealer.connect(endpoint)
  }
}

/// One strong reference to a loop that a job on the loop can take away.
private final class LoopHolder: Sendable {
  private let reference: Mutex<IOLoop?>

  init(_ loop: IOLoop) {
    reference = Mutex(loop)
  }

  var loop: IOLoop? { reference.withLock { $0 } }

  func take() -> IOLoop? {
    reference.withLock { $0.take() }
  }
}
