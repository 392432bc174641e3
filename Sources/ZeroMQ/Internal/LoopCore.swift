import Synchronization

/// The state an ``IOLoop`` shares between its thread and the threads that hand it work: the
/// job queue, the wake-up pipe, and which thread runs the loop.
final class LoopCore: Sendable {
  typealias Job = @Sendable (LoopScope) -> Void

  struct State: ~Copyable {
    /// Jobs waiting for the loop thread, in arrival order.
    var jobs: [Job] = []
    /// Whether new jobs are accepted (false once shutdown began).
    var accepting = true
    /// Whether the loop thread has finished its cleanup.
    var finished = false
    /// Tasks awaiting the end of the loop.
    var finishWaiters: [CheckedContinuation<Void, Never>] = []
    /// How many wake-ups were sent, for tests of the coalescing.
    var wakeUps = 0
    /// Whether a wake-up was written since the loop last took the queue.
    var wokenSinceTake = false
  }

  let context: Context
  let name: String
  let state: Mutex<State>
  /// Written when the queue goes from empty to non-empty, or at shutdown; polled by the loop.
  let wakePipe: WakePipe
  private let threadID = Atomic<UInt>(0)

  init(context: Context, name: String) throws(ZMQError) {
    self.context = context
    self.name = name
    state = Mutex(State())
    wakePipe = try WakePipe()
  }

  /// Records the calling thread as the loop thread; the loop thread calls this first.
  func enterLoopThread() {
    threadID.store(LoopThread.currentID, ordering: .releasing)
  }

  /// Whether the calling thread is this loop's thread.
  var isLoopThread: Bool {
    threadID.load(ordering: .acquiring) == LoopThread.currentID
  }

  /// Queues `job`, waking the loop only when the queue was empty (a non-empty queue already
  /// has a wake-up on its way) and the caller is another thread (the loop thread takes the
  /// queue before it next waits). Returns `false` once the loop no longer accepts jobs.
  func enqueue(_ job: @escaping Job) -> Bool {
    state.withLock { state in
      guard state.accepting else { return false }
      state.jobs.append(job)
      if state.jobs.count == 1 && !isLoopThread { Self.wake(&state, wakePipe) }
      return true
    }
  }

  /// Stops accepting jobs and wakes the loop so that it finishes. Returns whether this call
  /// was the one that began the shutdown.
  func beginShutdown() -> Bool {
    state.withLock { state in
      guard state.accepting else { return false }
      state.accepting = false
      Self.wake(&state, wakePipe)
      return true
    }
  }

  private static func wake(_ state: inout State, _ pipe: WakePipe) {
    pipe.signal()
    state.wakeUps += 1
    state.wokenSinceTake = true
  }

  /// Takes every queued job, and whether the loop should stop after running them and whether
  /// a wake-up was written to the pipe since the last take (jobs queued on the loop thread
  /// write none).
  func takeJobs() -> (jobs: [Job], stop: Bool, woken: Bool) {
    state.withLock { state in
      let jobs = state.jobs
      state.jobs = []
      let woken = state.wokenSinceTake
      state.wokenSinceTake = false
      return (jobs, !state.accepting, woken)
    }
  }

  /// Marks the loop finished and resumes every waiter.
  func finish() {
    let waiters = state.withLock { state in
      state.finished = true
      let waiters = state.finishWaiters
      state.finishWaiters = []
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until the loop thread has finished its cleanup.
  func waitUntilFinished() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        if state.finished { return true }
        state.finishWaiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Whether the loop thread has finished its cleanup.
  var isFinished: Bool { state.withLock { $0.finished } }
}
