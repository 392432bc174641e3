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
/// ```swift
/// let drain = DrainDepth.enter()  // the calling thread has become a store's drainer
/// // ...performs the work...
/// drain.leave()                   // the drain is over
/// ```
///
/// Thread-local: each thread counts in a cell of its own, found through a pthread key (the
/// standard library has no thread-local storage), made on the thread's first drain and freed
/// when the thread ends. Only its thread uses it, so it needs no synchronization, and a drain
/// costs one key lookup: setting a key's value costs more, so it is done once per thread.
struct DrainDepth {
  private let cell: UnsafeMutablePointer<Int>

  /// The calling thread's depth.
  static var current: Int {
    currentCell?.pointee ?? 0
  }

  /// Notes that the calling thread has become a store's drainer; call ``leave()`` on the result
  /// when that drain is over.
  static func enter() -> DrainDepth {
    let cell = currentCell ?? makeCell()
    cell.pointee += 1
    return DrainDepth(cell: cell)
  }

  /// Notes that the drain begun by ``enter()`` is over.
  func leave() {
    cell.pointee -= 1
  }

  /// The calling thread's cell, if it has one.
  private static var currentCell: UnsafeMutablePointer<Int>? {
    pthread_getspecific(drainDepthKey)?.assumingMemoryBound(to: Int.self)
  }

  /// Makes the calling thread's cell.
  private static func makeCell() -> UnsafeMutablePointer<Int> {
    let cell = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    cell.initialize(to: 0)
    let status = pthread_setspecific(drainDepthKey, cell)
    precondition(status == 0, "pthread_setspecific failed with \(status)")
    return cell
  }
}

/// The key of the cells of ``DrainDepth``, made once per process and never deleted; a thread's
/// cell is freed when the thread ends.
private let drainDepthKey: pthread_key_t = {
  var key = pthread_key_t()
  #if canImport(Darwin)
    let status = pthread_key_create(&key) { $0.deallocate() }
  #else
    let status = pthread_key_create(&key) { $0?.deallocate() }
  #endif
  precondition(status == 0, "pthread_key_create failed with \(status)")
  return key
}()
