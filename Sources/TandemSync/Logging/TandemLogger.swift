/// Where Tandem's leaders and followers write what they do: a label, a handler, and one method
/// per level, in the shape of swift-log's `Logger` under a name of its own, so that an
/// application importing both `Logging` and `TandemSync` has no name that clashes.
///
/// Tandem makes its loggers with ``TandemLogging/makeHandler(label:)``, so one call to
/// ``TandemLogging/bootstrap(_:)`` routes every line elsewhere (see <doc:Logging>). Without it
/// lines go to standard error, as text or with `TANDEM_LOG_FORMAT=json` as JSON lines, at the
/// level `TANDEM_LOG` names (`info` by default):
///
/// ```swift
/// var log = TandemLogger(label: "billing")
/// log[metadataKey: "region"] = "eu-1"
/// log.info("invoice sent", metadata: ["invoice": "42"])
/// ```
///
/// A message is an autoclosure: below the handler's level it is not even formatted.
public struct TandemLogger: Sendable {
  /// Key-value pairs a line carries besides its message.
  public typealias Metadata = [String: String]

  /// What the lines of this logger name as their origin, e.g. `leader` or `follower[web-1]`.
  public let label: String
  /// Where the lines go; its ``TandemLogHandler/logLevel`` decides which are written.
  public var handler: any TandemLogHandler

  /// A logger whose handler the bootstrapped factory makes (see ``TandemLogging``).
  public init(label: String) {
    self.init(label: label, handler: TandemLogging.makeHandler(label: label))
  }

  /// A logger writing to `handler`.
  public init(label: String, handler: any TandemLogHandler) {
    self.label = label
    self.handler = handler
  }

  /// The least severe level written.
  public var logLevel: Level {
    get { handler.logLevel }
    set { handler.logLevel = newValue }
  }

  /// The handler's metadata value for `key`, carried by every line.
  public subscript(metadataKey key: String) -> String? {
    get { handler.metadata[key] }
    set { handler.metadata[key] = newValue }
  }

  /// Writes `message` at `level` when the handler's level allows it.
  public func log(
    level: Level, _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    guard level >= handler.logLevel else { return }
    handler.log(
      TandemLogRecord(
        label: label, level: level, message: message(), metadata: metadata() ?? [:],
        file: file, function: function, line: line))
  }

  /// Writes a message of the finest detail (every frame).
  public func trace(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(level: .trace, message(), metadata: metadata(), file: file, function: function, line: line)
  }

  /// Writes protocol detail (every request, every publish).
  public func debug(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(level: .debug, message(), metadata: metadata(), file: file, function: function, line: line)
  }

  /// Writes a notable event: joins, resyncs, gaps, a start or a stop.
  public func info(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(level: .info, message(), metadata: metadata(), file: file, function: function, line: line)
  }

  /// Writes an event an operator may want to act on.
  public func notice(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(level: .notice, message(), metadata: metadata(), file: file, function: function, line: line)
  }

  /// Writes something that went wrong and was recovered from.
  public func warning(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .warning, message(), metadata: metadata(), file: file, function: function,
      line: line)
  }

  /// Writes a failure: what did not happen, and why.
  public func error(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(level: .error, message(), metadata: metadata(), file: file, function: function, line: line)
  }

  /// Writes a failure that stops the process or the component.
  public func critical(
    _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    log(
      level: .critical, message(), metadata: metadata(), file: file, function: function,
      line: line)
  }
}
