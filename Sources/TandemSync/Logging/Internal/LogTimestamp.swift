#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time of a log line: UTC, ISO 8601 with milliseconds.
enum LogTimestamp {
  /// The current time, e.g. `2026-11-29T21:40:00.123Z`.
  static func now() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let millis = Int(now.tv_nsec / 1_000_000)
    let milliText = String(repeating: "0", count: 3 - String(millis).count) + String(millis)
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milliText)Z"
  }
}

/// Writes `text` and a newline to `descriptor` in one `write` where it fits (lines from many
/// threads do not interleave), retrying after EINTR and a short write; a failure is dropped,
/// as there is nowhere left to report it.
func writeLogLine(_ text: String, to descriptor: Int32) {
  let line = text + "\n"
  line.utf8CString.withUnsafeBufferPointer { bytes in
    var offset = 0
    let count = bytes.count - 1
    while offset < count {
      let written = write(descriptor, bytes.baseAddress! + offset, count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
