#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` as a task and blocks the calling thread until it ends, returning its result.
///
/// For threads of Tandem's own (a lease keeper's), whose work calls async APIs (starting and
/// stopping a leader): never call it from a task, whose cooperative thread it would block (two
/// such waits on 2 cores deadlock the pool).
func waitOnThisThread<Value: Sendable>(
  _ body: @escaping @Sendable () async throws -> Value
) throws -> Value {
  let slot = ResultSlot<Value>()
  Task {
    do {
      slot.fill(.success(try await body()))
    } catch {
      slot.fill(.failure(error))
    }
  }
  return try slot.take().get()
}

/// One result handed from a task to a waiting thread, under a pthread mutex and condition.
private final class ResultSlot<Value: Sendable>: @unchecked Sendable {
  // Unchecked: every access to `result` holds `mutex`.
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var result: Result<Value, any Error>?

  init() {
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  func fill(_ value: Result<Value, any Error>) {
    pthread_mutex_lock(&mutex)
    result = value
    pthread_cond_signal(&condition)
    pthread_mutex_unlock(&mutex)
  }

  func take() -> Result<Value, any Error> {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    while true {
      if let result { return result }
      pthread_cond_wait(&condition, &mutex)
    }
  }
}
