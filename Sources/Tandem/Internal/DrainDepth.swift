#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many drains the calling thread is inside: the number of stores it is draining at once.
///
/// A drain nests in another when user code it runs (a reducer, a middleware, a subscriber, an
/// observer) dispatches to a store that no one is draining: the thread drains that store too,
/// and returns to the outer drain when it is over. While the depth is not zero, the thread must
/// not wait for another thread's drain: that thread may be waiting for one of its own, and the
/// two would wait forever (see ``Admission``). Nothing else waits on a thread that drains no
/// store, so with this rule no cycle of threads waiting for drainers can form.
///
/// A thread-local value (a pthread key: the standard library has none), kept in the key's
/// pointer-sized slot itself, so it costs no allocation.
enum DrainDepth {
  /// The calling thread's depth.
  static var current: Int {
    Int(bitPattern: pthread_getspecific(drainDepthKey))
  }

  /// Notes that the calling thread has become a store's drainer; returns the depth before, to
  /// pass to ``leave(restoring:)`` when that drain is over.
  static func enter() -> Int {
    let depth = current
    set(depth + 1)
    return depth
  }

  /// Notes that a drain of the calling thread is over: `depth` is what ``enter()`` returned.
  static func leave(restoring depth: Int) {
    set(depth)
  }

  private static func set(_ depth: Int) {
    let status = pthread_setspecific(drainDepthKey, UnsafeRawPointer(bitPattern: depth))
    precondition(status == 0, "pthread_setspecific failed with \(status)")
  }
}

/// The key of ``DrainDepth``, made once per process and never deleted.
private let drainDepthKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, nil)
  precondition(status == 0, "pthread_key_create failed with \(status)")
  return key
}()
