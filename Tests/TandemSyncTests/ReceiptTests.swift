import Synchronization
import Testing

@testable import TandemSync

@Suite("Receipts")
struct ReceiptTests {
  @Test func aCancelledWaitEndsAndTheReceiptStillSettles() async throws {
    let receipt = Receipt()
    let waiting = WaitingTask(receipt)
    waiting.task.cancel()
    #expect(await waiting.ended() == .failure(.waitCancelled))
    #expect(receipt.outcome == nil)
    receipt.settle(.success(7))
    #expect(try await receipt.applied() == 7)
  }

  @Test func aWaitCancelledAfterItBeganEnds() async throws {
    let receipt = Receipt()
    let (started, starter) = AsyncStream<Void>.makeStream()
    let waiting = WaitingTask(receipt) { starter.yield() }
    for await _ in started { break }
    waiting.task.cancel()
    #expect(await waiting.ended() == .failure(.waitCancelled))
  }

  @Test func everyWaiterGetsTheOutcome() async throws {
    let receipt = Receipt()
    let waiters = (0..<3).map { _ in WaitingTask(receipt) }
    receipt.settle(.failure(.stopped))
    for waiter in waiters { #expect(await waiter.ended() == .failure(.stopped)) }
  }
}

/// A task awaiting a receipt, whose end a test waits for with a deadline (a wait that never
/// ends fails the test rather than hanging it).
private struct WaitingTask {
  private final class Ending: Sendable {
    let result = Mutex<Result<UInt64, FollowerError>?>(nil)
  }

  let task: Task<Void, Never>
  private let ending = Ending()

  init(_ receipt: Receipt, first: @escaping @Sendable () -> Void = {}) {
    let ending = self.ending
    task = Task {
      first()
      let result: Result<UInt64, FollowerError>
      do throws(FollowerError) {
        result = .success(try await receipt.applied())
      } catch {
        result = .failure(error)
      }
      ending.result.withLock { $0 = result }
    }
  }

  /// How the wait ended, or nil if it did not end within 10 s.
  func ended() async -> Result<UInt64, FollowerError>? {
    guard await eventually("the wait ended", { ending.result.withLock { $0 != nil } }) else {
      return nil
    }
    return ending.result.withLock { $0 }
  }
}
