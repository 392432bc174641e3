import Dispatch

/// Runs `body` as a task and blocks the calling thread until it finishes, returning its result:
/// the bridge from a synchronous command (`main`) to async code. Call it from the main thread or
/// another thread of your own, never from a task (it would block a thread of Swift's pool).
public func blockingAsync<Result: Sendable>(
  _ body: @escaping @Sendable () async throws -> Result
) throws -> Result {
  let done = DispatchSemaphore(value: 0)
  let box = ResultBox<Result>()
  Task {
    do {
      box.result = .success(try await body())
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  return try box.result!.get()
}

/// Carries a task's result to the thread waiting on the semaphore (written before the signal,
/// read after the wait).
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
  var result: Swift.Result<Value, any Error>?
}
