import CZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A joinable OS thread (pthread) running one closure: the ``IOLoop``'s thread.
struct LoopThread: @unchecked Sendable {
  // pthread_t is a plain handle; it is only joined once, by the loop's owner.
  private var thread: pthread_t

  /// Starts a thread named `name` (truncated to 15 bytes on Linux) that runs `body`.
  init(name: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
      let status = pthread_create(
        &thread, nil,
        { argument in
          Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().run()
          return nil
        }, box)
      precondition(status == 0, "pthread_create failed: errno \(status)")
      self.thread = thread
    #else
      var thread: pthread_t?
      let status = pthread_create(
        &thread, nil,
        { argument in
          Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
          return nil
        }, box)
      precondition(status == 0, "pthread_create failed: errno \(status)")
      self.thread = thread!
    #endif
  }

  /// Waits for the thread to end (`pthread_join`); call exactly once.
  func join() {
    let status = pthread_join(thread, nil)
    precondition(status == 0, "pthread_join failed: errno \(status)")
  }

  /// Lets the thread end on its own (`pthread_detach`); call instead of ``join()``.
  func detach() {
    pthread_detach(thread)
  }

  /// A number that identifies the calling thread among running threads.
  static var currentID: UInt {
    #if canImport(Glibc)
      UInt(pthread_self())
    #else
      UInt(bitPattern: pthread_self())
    #endif
  }
}

private final class ThreadBody: Sendable {
  let name: String
  let body: @Sendable () -> Void

  init(name: String, body: @escaping @Sendable () -> Void) {
    self.name = name
    self.body = body
  }

  func run() {
    #if canImport(Glibc)
      _ = czmq_set_current_thread_name(name)
    #else
      _ = pthread_setname_np(name)
    #endif
    body()
  }
}
