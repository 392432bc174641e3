import Synchronization

/// A stand-in for swift-log's `Logging` module, which SwiftPM cannot fetch here: its `Logger`
/// with the parts of the API a bridge from Tandem uses (levels, metadata values, messages,
/// `log(level:_:metadata:source:file:function:line:)`), collecting what is logged in
/// ``Logger/written``. A module of this name and a type `Logger` beside `TandemSync` show that
/// the two do not clash.
public struct Logger: Sendable {
  public enum Level: String, Sendable, Codable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
  }

  public enum MetadataValue: Sendable, Equatable {
    case string(String)
    case array([MetadataValue])
    case dictionary([String: MetadataValue])
  }

  public typealias Metadata = [String: MetadataValue]

  public struct Message: Sendable, Equatable, ExpressibleByStringInterpolation {
    public var text: String
    public init(stringLiteral value: String) { text = value }
  }

  /// One line as the stand-in received it.
  public struct Line: Sendable, Equatable {
    public var label: String
    public var level: Level
    public var message: String
    public var metadata: Metadata
    public var source: String

    public init(
      label: String, level: Level, message: String, metadata: Metadata, source: String
    ) {
      self.label = label
      self.level = level
      self.message = message
      self.metadata = metadata
      self.source = source
    }
  }

  public let label: String
  public var logLevel: Level = .info

  public init(label: String) {
    self.label = label
  }

  /// Every line logged through a stand-in logger, in order.
  public static let written = Mutex<[Line]>([])

  public func log(
    level: Level, _ message: @autoclosure () -> Message,
    metadata: @autoclosure () -> Metadata? = nil, source: @autoclosure () -> String? = nil,
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    let entry = Line(
      label: label, level: level, message: message().text, metadata: metadata() ?? [:],
      source: source() ?? "")
    Self.written.withLock { $0.append(entry) }
  }
}
