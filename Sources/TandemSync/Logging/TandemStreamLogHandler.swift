/// Tandem's built-in handler: lines to standard error (or another file descriptor), as text for
/// people or as JSON lines for log shippers.
///
/// Text (the default):
///
/// ```text
/// 2026-11-29T21:40:00.123Z info  follower[web-1] replica at epoch 3f2a... sequence 120
/// ```
///
/// JSON (`TANDEM_LOG_FORMAT=json`): one canonical JSON object a line, with the members `label`,
/// `level`, `message`, `metadata` (when there is any), `source` (file:line) and `time` (UTC,
/// ISO 8601 with milliseconds):
///
/// ```text
/// {"label":"leader","level":"info","message":"stopping at sequence 12","source":"TandemSync/LeaderEngine.swift:294","time":"2026-11-29T21:40:00.123Z"}
/// ```
///
/// A line is written with one `write` where it fits, so lines of many threads do not mix.
public struct TandemStreamLogHandler: TandemLogHandler {
  /// How a line is spelled.
  public enum Format: String, Sendable, Equatable, CaseIterable {
    /// Time, level, label, message, then `key=value` metadata pairs.
    case text
    /// One JSON object a line.
    case json
  }

  public var logLevel: TandemLogger.Level = .info
  public var metadata: TandemLogger.Metadata = [:]
  public var format: Format
  /// The file descriptor written to (2, standard error, by default).
  public var descriptor: Int32

  public init(format: Format = .text, descriptor: Int32 = 2) {
    self.format = format
    self.descriptor = descriptor
  }

  public func log(_ record: TandemLogRecord) {
    writeLogLine(line(record, time: LogTimestamp.now()), to: descriptor)
  }

  /// The line `record` is written as at `time`, without the newline.
  func line(_ record: TandemLogRecord, time: String) -> String {
    let metadata = record.metadata(over: self.metadata)
    switch format {
    case .text: return TextLogFormat.line(record, metadata: metadata, time: time)
    case .json: return JSONLogFormat.line(record, metadata: metadata, time: time)
    }
  }
}
