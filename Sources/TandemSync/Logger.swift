import Synchronization
import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Leveled logging for leaders and followers, with one process-wide switch.
///
/// Errors are always written; joins, resyncs and gaps at ``Level/info``; every frame at
/// ``Level/debug``. Set the level in code (`Logger.level = .debug`) or with the environment
/// variable `TANDEM_LOG` (`error`, `info` or `debug`). Lines go to standard error:
///
/// ```text
/// 2026-11-29T21:40:00.123Z info  follower[web-1] joined epoch 3f2a... at sequence 120
/// ```
public struct Logger: Sendable {
  /// How much to write.
  public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
    case error = 0
    case info = 1
    case debug = 2

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
      switch self {
      case .error: "error"
      case .info: "info"
      case .debug: "debug"
      }
    }

    /// The level named by `text` (`error`, `info`, `debug`), if any.
    public init?(_ text: String) {
      switch text.lowercased() {
      case "error": self = .error
      case "info": self = .info
      case "debug": self = .debug
      default: return nil
      }
    }
  }

  private static let threshold = Atomic<Int>(initialThreshold().rawValue)

  /// The process-wide level: messages above it are not written (nor formatted).
  public static var level: Level {
    get { Level(rawValue: threshold.load(ordering: .relaxed)) ?? .info }
    set { threshold.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// What the lines of this logger start with, e.g. `leader` or `follower[web-1]`.
  public var label: String

  public init(label: String) {
    self.label = label
  }

  /// Writes an error; always on.
  public func error(_ message: @autoclosure () -> String) {
    log(.error, message())
  }

  /// Writes a notable event (joins, resyncs, gaps) when the level is info or debug.
  public func info(_ message: @autoclosure () -> String) {
    if Self.level >= .info { log(.info, message()) }
  }

  /// Writes protocol detail (every frame) when the level is debug.
  public func debug(_ message: @autoclosure () -> String) {
    if Self.level >= .debug { log(.debug, message()) }
  }

  private func log(_ level: Level, _ message: String) {
    let padded = level.description + String(repeating: " ", count: 6 - level.description.count)
    let line = "\(Self.timestamp()) \(padded)\(label) \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { bytes in
      write(STDERR_FILENO, bytes.baseAddress, bytes.count - 1)
    }
  }

  private static func initialThreshold() -> Level {
    guard let value = getenv("TANDEM_LOG") else { return .info }
    return Level(String(cString: value)) ?? .info
  }

  /// The current UTC time as ISO 8601 with milliseconds.
  private static func timestamp() -> String {
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
