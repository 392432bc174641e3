import Logging
import TandemSync
import Testing

// The bridge of TandemSync.docc/Logging.md, as written there: it compiles with a module named
// `Logging` whose `Logger` is swift-log's shape, imported beside TandemSync.

/// Passes Tandem's lines on to a swift-log `Logger`.
struct SwiftLogBridge: TandemLogHandler {
  var logger: Logger
  var metadata: TandemLogger.Metadata = [:]

  var logLevel: TandemLogger.Level {
    get { TandemLogger.Level(rawValue: logger.logLevel.rawValue) ?? .info }
    set { logger.logLevel = Logger.Level(rawValue: newValue.rawValue) ?? .info }
  }

  func log(_ record: TandemLogRecord) {
    logger.log(
      level: Logger.Level(rawValue: record.level.rawValue) ?? .info,
      "\(record.message)",
      metadata: record.metadata(over: metadata).mapValues { .string($0) },
      source: "TandemSync", file: record.file, function: record.function, line: record.line)
  }
}

func routeTandemLogs() {
  TandemLogging.bootstrap { label in SwiftLogBridge(logger: Logger(label: label)) }
}

@Suite("The bridge from Tandem's logging to swift-log")
struct SwiftLogBridgeTests {
  @Test func linesReachTheApplicationsLogger() {
    let label = "bridge-test-" + String(UInt64.random(in: 0...UInt64.max))
    var log = TandemLogger(label: label, handler: SwiftLogBridge(logger: Logger(label: label)))
    log[metadataKey: "region"] = "eu-1"
    log.info("joined", metadata: ["sequence": "12"])
    log.debug("below the level: not passed on")
    log.logLevel = .debug
    log.debug("now passed on")
    let lines = Logger.written.withLock { $0 }.filter { $0.label == label }
    #expect(
      lines == [
        Logger.Line(
          label: label, level: .info, message: "joined",
          metadata: ["region": .string("eu-1"), "sequence": .string("12")], source: "TandemSync"),
        Logger.Line(
          label: label, level: .debug, message: "now passed on",
          metadata: ["region": .string("eu-1")], source: "TandemSync"),
      ])
  }

  @Test func everyLevelMapsToSwiftLogsOfTheSameName() {
    #expect(TandemLogger.Level.allCases.map(\.rawValue) == Logger.Level.allCases.map(\.rawValue))
  }
}
