import CZeroMQ
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state an ``IOLoop`` shares between its thread and the threads that hand it work: the
/// job queue, the sending end of the wake-up pipe, and which thread runs the loop.
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
    /// The sending end of the `inproc` wake-up pipe, used only under the lock.
    var wakeSender: UncheckedSocket
    /// How many wake-ups were sent, for tests of the coalescing.
    var wakeUps = 0
  }

  let context: Context
  let name: String
  let state: Mutex<State>
  private let threadID = Atomic<UInt>(0)

  init(context: Context, name: String, wakeSender: UncheckedSocket) {
    self.context = context
    self.name = name
    state = Mutex(State(wakeSender: wakeSender))
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
  /// has a wake-up on its way). Returns `false` once the loop no longer accepts jobs.
  func enqueue(_ job: @escaping Job) -> Bool {
    state.withLock { state in
      guard state.accepting else { return false }
      state.jobs.append(job)
      if state.jobs.count == 1 {
        state.wakeSender.signal()
        state.wakeUps += 1
      }
      return true
    }
  }

  /// Stops accepting jobs and wakes the loop so that it finishes. Returns whether this call
  /// was the one that began the shutdown.
  func beginShutdown() -> Bool {
    state.withLock { state in
      guard state.accepting else { return false }
      state.accepting = false
      state.wakeSender.signal()
      state.wakeUps += 1
      return true
    }
  }

  /// Takes every queued job, and whether the loop should stop after running them.
  func takeJobs() -> (jobs: [Job], stop: Bool) {
    state.withLock { state in
      let jobs = state.jobs
      state.jobs = []
      return (jobs, !state.accepting)
    }
  }

  /// Marks the loop finished, closes the wake-up sender and resumes every waiter.
  func finish() {
    let waiters = state.withLock { state in
      state.finished = true
      state.wakeSender.close()
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

/// A socket used only under `LoopCore`'s lock (the wake-up sender), hence safe to share.
struct UncheckedSocket: @unchecked Sendable {
  private let socket: Socket

  init(_ socket: Socket) {
    self.socket = socket
  }

  /// Sends one empty frame without waiting. A full pipe already holds a pending wake-up, so
  /// `EAGAIN` is ignored.
  func signal() {
    guard !socket.isClosed else { return }
    let handle = socket.handle
    while zmq_send(handle, nil, 0, ZMQ_DONTWAIT) < 0 && zmq_errno() == EINTR {}
  }

  func close() {
    socket.close()
  }
}
