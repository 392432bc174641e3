import Synchronization

/// Bounds the lines a peer can make a process write: at most ``burst`` lines per call site and
/// logger label in each ``window``; the rest are counted, and the next line written from that
/// place says how many were left out (metadata `suppressed`). A leader flooded with malformed
/// requests or HELLOs, or a follower with malformed updates, so writes a few lines a window,
/// not one per message.
final class LogRateLimiter: Sendable {
  /// Lines allowed per place and window.
  let burst: Int
  let window: Duration
  private let places = Mutex<[String: Place]>([:])

  private struct Place {
    var start: ContinuousClock.Instant
    var written = 0
    var suppressed = 0
  }

  /// The limiter every rate-limited line of the process goes through.
  static let shared = LogRateLimiter(burst: 10, window: .seconds(10))

  init(burst: Int, window: Duration) {
    self.burst = burst
    self.window = window
  }

  /// Whether the line from `place` may be written now, and how many lines from there were
  /// left out since the last one written; `nil` when this one is to be left out.
  func admit(_ place: String, now: ContinuousClock.Instant = .now) -> Int? {
    places.withLock { places in
      var entry = places[place] ?? Place(start: now)
      if now - entry.start >= window {
        entry.start = now
        entry.written = 0
      }
      guard entry.written < burst else {
        entry.suppressed += 1
        places[place] = entry
        return nil
      }
      let suppressed = entry.suppressed
      entry.written += 1
      entry.suppressed = 0
      places[place] = entry
      return suppressed
    }
  }
}

extension TandemLogger {
  /// Writes a line about something a peer controls (a request, a message, a refusal), at most
  /// a few per call site and window (see ``LogRateLimiter``).
  func rateLimited(
    _ level: Level, _ message: @autoclosure () -> String,
    limiter: LogRateLimiter = .shared,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    guard level >= handler.logLevel,
      let suppressed = limiter.admit("\(label) \(file):\(line)")
    else { return }
    log(
      level: level, message(), metadata: suppressed > 0 ? ["suppressed": "\(suppressed)"] : nil,
      file: file, function: function, line: line)
  }
}
