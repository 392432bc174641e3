#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-shot event a thread blocks on until another thread signals it.
///
/// A thread that must wait for the draining thread (its dispatch is queued, or it reads the state
/// while a reducer runs) parks on one of these. Only the contended path allocates them.
/// `Synchronization` has no condition variable, hence pthreads.
final class Wakeup: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Guarded by `mutex`.
  private var signaled = false

  init() {
    let mutexStatus = pthread_mutex_init(mutex, nil)
    precondition(mutexStatus == 0, "pthread_mutex_init failed with \(mutexStatus)")
    let conditionStatus = pthread_cond_init(condition, nil)
    precondition(conditionStatus == 0, "pthread_cond_init failed with \(conditionStatus)")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Blocks the calling thread until ``signal()`` has been called (returns at once if it was).
  func wait() {
    pthread_mutex_lock(mutex)
    while !signaled {
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }

  /// Releases the waiting thread, now or when it calls ``wait()``.
  func signal() {
    pthread_mutex_lock(mutex)
    signaled = true
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }
}
