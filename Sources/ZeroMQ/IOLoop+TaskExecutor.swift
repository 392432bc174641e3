/// An ``IOLoop`` is a task executor: a task that prefers it runs its nonisolated async code on
/// the loop thread, between the loop's other work.
///
/// ```swift
/// try await withTaskExecutorPreference(loop) {
///   // On the loop thread: the closure is queued without waking another thread, and the task
///   // resumes in the same turn of the loop, right after the closure ran.
///   let sent = try await loop.submit { _ in try dealer.value.send("hello") }
/// }
/// ```
///
/// This removes two thread switches from a request and its answer when both are handled by the
/// loop. Code running this way holds up every socket of the loop while it runs, so it must not
/// block: no blocking calls, no long computations.
extension IOLoop: TaskExecutor {
  /// Runs `job` on the loop thread after the work queued before it; once ``shutdown()`` has
  /// begun, on the global concurrent executor instead (a task is never left suspended).
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let queued = core.enqueue { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    if !queued { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
  }
}
