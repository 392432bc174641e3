/// Where a ``TandemLogger``'s lines go: the shape of swift-log's `LogHandler` under a name of
/// its own. Implement it to route Tandem's logs into an application's logging system, and
/// install it with ``TandemLogging/bootstrap(_:)``.
///
/// The logger checks ``logLevel`` before it builds a record, so ``log(_:)`` is only called for
/// lines to write. A handler is a value: each logger has its own copy, whose level and metadata
/// it may change.
public protocol TandemLogHandler: Sendable {
  /// Writes one line (or passes it on).
  func log(_ record: TandemLogRecord)
  /// The least severe level written.
  var logLevel: TandemLogger.Level { get set }
  /// Metadata every line of this handler carries (a line's own wins on a clash).
  var metadata: TandemLogger.Metadata { get set }
}

/// One line of a ``TandemLogger``: what a ``TandemLogHandler`` writes.
public struct TandemLogRecord: Sendable, Equatable {
  /// The logger's label, e.g. `leader` or `follower[web-1]`.
  public var label: String
  public var level: TandemLogger.Level
  public var message: String
  /// The line's own metadata (the handler's is not merged in: ``metadata(over:)`` does it).
  public var metadata: TandemLogger.Metadata
  /// Where in Tandem the line was written.
  public var file: String
  public var function: String
  public var line: UInt

  public init(
    label: String, level: TandemLogger.Level, message: String,
    metadata: TandemLogger.Metadata = [:], file: String = #fileID,
    function: String = #function, line: UInt = #line
  ) {
    self.label = label
    self.level = level
    self.message = message
    self.metadata = metadata
    self.file = file
    self.function = function
    self.line = line
  }

  /// The line's metadata over a handler's: every key of both, the line's value on a clash.
  public func metadata(over handlerMetadata: TandemLogger.Metadata) -> TandemLogger.Metadata {
    handlerMetadata.merging(metadata) { _, own in own }
  }
}
