#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pipe that wakes an ``IOLoop`` thread from `poll`: any thread writes a byte, the loop
/// polls the read end and drains it. Both ends are non-blocking, so a full pipe (which already
/// holds a wake-up) never blocks a writer.
final class WakePipe: Sendable {
  /// The end the loop polls and drains.
  let readEnd: Int32
  private let writeEnd: Int32

  init() throws(ZMQError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw ZMQError(code: ZMQError.Code(rawValue: errno), call: "pipe")
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    (readEnd, writeEnd) = (ends[0], ends[1])
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Writes one byte; a full pipe (`EAGAIN`) already holds a pending wake-up.
  func signal() {
    var byte: UInt8 = 1
    while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
  }

  /// Reads every byte written so far.
  func drain() {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      while true {
        let count = read(readEnd, buffer.baseAddress, buffer.count)
        if count == buffer.count || (count < 0 && errno == EINTR) { continue }
        return
      }
    }
  }
}
