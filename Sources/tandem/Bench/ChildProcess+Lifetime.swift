import CommandLineKit
import Foundation
import Synchronization

#if os(Linux)
  import CProcessControl
#endif

/// How a benchmark's helper processes end with it: when the benchmark is stopped by SIGINT or
/// SIGTERM, it terminates them; when it dies any other way (SIGKILL included), Linux kills them.
extension ChildProcess {
  /// The hidden option that gives a helper its benchmark's process id.
  static let parentOption = "--parent-pid"

  /// Makes SIGINT and SIGTERM send SIGTERM to every running helper and then end this process
  /// with status 128 + the signal's number. A benchmark that starts helpers calls it on its main
  /// thread before it starts any other (it blocks the signals with `TerminationSignals.block()`,
  /// and starts the thread that starts the helpers, which inherit its blocked signals).
  static func terminateOnSignal() {
    TerminationSignals.block()
    TerminationSignals.onTermination { signal in
      terminating.store(true, ordering: .sequentiallyConsistent)
      for process in helpers.withLock({ $0.running.values }) where process.isRunning {
        process.terminate()
      }
      exit(128 + signal)
    }
    let launcher = LauncherThread()
    helpers.withLock { $0.launcher = launcher }
  }

  /// Runs `body`, a benchmark that calls ``terminateOnSignal()``; once SIGINT or SIGTERM has
  /// come, it never returns or throws, and leaves the exit to the signal's handler. The handler
  /// terminates the helpers, and its exit stops the benchmark's PostgreSQL cluster, so the
  /// benchmark may fail meanwhile: that failure is the signal's doing, and reporting it (with
  /// status 1, racing the handler's exit) would hide the status 128 + the signal's number.
  static func untilTermination(_ body: () throws -> Void) throws {
    defer {
      while terminating.load(ordering: .sequentiallyConsistent) { sleep(60) }
    }
    try body()
  }

  /// Whether SIGINT or SIGTERM came (``terminateOnSignal()``'s handler is ending the process).
  private static let terminating = Atomic(false)

  /// In a helper, before it starts any thread: unblocks SIGINT and SIGTERM (blocked in the
  /// benchmark that started it), reads the `--parent-pid` option the benchmark adds and, on Linux,
  /// asks the kernel for SIGKILL when the benchmark ends. Fails if the benchmark has already ended.
  static func endWithParent(_ arguments: inout CommandLineArguments) throws {
    TerminationSignals.unblock()
    let option = String(parentOption.dropFirst(2))
    guard let text = arguments.option(option) else { return }
    guard let parent = pid_t(text) else { throw UsageError("\(parentOption) takes a process id") }
    #if os(Linux)
      guard tandem_set_parent_death_signal(SIGKILL) == 0 else {
        throw CommandFailure(.failure, "prctl(PR_SET_PDEATHSIG) failed: errno \(errno)")
      }
    #endif
    // A benchmark that ended before the prctl above left this process to another parent.
    guard getppid() == parent else {
      throw CommandFailure(.unavailable, "the benchmark that started this helper has ended")
    }
  }

  /// Starts `process` from the launcher thread and counts it among the running helpers.
  static func launch(_ process: Process) throws {
    guard let launcher = helpers.withLock({ $0.launcher }) else {
      preconditionFailure(
        "a benchmark calls ChildProcess.terminateOnSignal() before it starts helper processes")
    }
    try launcher.run { try process.run() }
    helpers.withLock { $0.running[ObjectIdentifier(process)] = process }
  }

  /// Takes `process`, which has exited, off the running helpers.
  static func forget(_ process: Process) {
    _ = helpers.withLock { $0.running.removeValue(forKey: ObjectIdentifier(process)) }
  }

  private static let helpers = Mutex(Helpers())
}

/// The helpers a benchmark started and has not seen exit.
private struct Helpers {
  /// The thread that starts them, from ``ChildProcess/terminateOnSignal()``.
  var launcher: LauncherThread?
  var running: [ObjectIdentifier: Process] = [:]
}

/// The thread that starts every helper process. It lives as long as this process (Linux sends a
/// helper its parent-death signal when the thread that started it ends, not its process, and the
/// threads of Swift's cooperative pool end when they have been idle for a while), and blocks only
/// the signals of the main thread that started it (a helper starts with the signals blocked in
/// the thread that started it; a thread of the pool blocks nearly all).
private final class LauncherThread: Sendable {
  private let requests = Mutex<[Request]>([])
  private let requested = DispatchSemaphore(value: 0)

  /// Work for the thread, and its outcome.
  private final class Request: Sendable {
    let body: @Sendable () throws -> Void
    let failure = Mutex<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Void) {
      self.body = body
    }
  }

  init() {
    let thread = Thread { [self] in
      while true {
        requested.wait()
        let request = requests.withLock { $0.removeFirst() }
        do {
          try request.body()
        } catch {
          request.failure.withLock { $0 = error }
        }
        request.done.signal()
      }
    }
    thread.name = "helper-launcher"
    thread.start()
  }

  /// Runs `body` on the launcher thread; returns (or throws) when it has.
  func run(_ body: @escaping @Sendable () throws -> Void) throws {
    let request = Request(body)
    requests.withLock { $0.append(request) }
    requested.signal()
    request.done.wait()
    if let failure = request.failure.withLock({ $0 }) { throw failure }
  }
}
