#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#else
  #error("Tandem needs pthreads")
#endif

/// The identity of an OS thread, to tell the draining thread from the others.
///
/// From `pthread_self()`: the standard library has no thread identity, and a task-local value
/// would be inherited by tasks that run on other threads.
struct ThreadIdentity: Equatable, Sendable {
  private let raw: UInt

  /// The calling thread.
  static var current: ThreadIdentity {
    #if canImport(Darwin)
      ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
    #else
      ThreadIdentity(raw: UInt(pthread_self()))
    #endif
  }
}
