import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one switch for where Tandem logs: the factory every ``TandemLogger`` gets its handler
/// from, as swift-log's `LoggingSystem` is for `Logger`.
///
/// Bootstrap once, first thing, before any leader or follower starts (a logger keeps the
/// handler it was made with):
///
/// ```swift
/// TandemLogging.bootstrap { label in
///   var handler = TandemStreamLogHandler(format: .json)
///   handler.logLevel = .notice
///   return handler
/// }
/// ```
///
/// Without a bootstrap, ``standardHandler(label:environment:)`` decides: `TANDEM_LOG_FORMAT`
/// (`text`, the default, or `json`) and `TANDEM_LOG` (a level, `info` by default).
public enum TandemLogging {
  /// A factory of handlers by label.
  public typealias Factory = @Sendable (_ label: String) -> any TandemLogHandler

  private static let factory = Mutex<Factory?>(nil)

  /// Makes every logger made from now on take its handler from `factory`. A later call
  /// replaces an earlier one.
  public static func bootstrap(_ factory: @escaping Factory) {
    self.factory.withLock { $0 = factory }
  }

  /// Bootstraps the standard handlers at `level` (or `TANDEM_LOG`'s level when `nil`), in
  /// `TANDEM_LOG_FORMAT`'s format: for a command-line tool that logs less by default.
  public static func bootstrapStandard(level: TandemLogger.Level? = nil) {
    bootstrap { label in
      var handler = standardHandler(label: label)
      if let level { handler.logLevel = level }
      return handler
    }
  }

  /// The handler for a new logger labelled `label`: the bootstrapped factory's, or the
  /// standard one.
  public static func makeHandler(label: String) -> any TandemLogHandler {
    let factory = self.factory.withLock { $0 }
    return factory?(label) ?? standardHandler(label: label)
  }

  /// The handler the environment asks for, writing to standard error: JSON lines when
  /// `TANDEM_LOG_FORMAT` is `json`, text otherwise, at `TANDEM_LOG`'s level (`info` when
  /// unset or not a level). `environment` stands in for the process's environment.
  public static func standardHandler(
    label: String, environment: [String: String]? = nil
  ) -> any TandemLogHandler {
    let variable = { (name: String) -> String? in
      if let environment { return environment[name] }
      return getenv(name).map { String(cString: $0) }
    }
    let format = variable("TANDEM_LOG_FORMAT")?.lowercased() == "json"
    var handler = TandemStreamLogHandler(format: format ? .json : .text)
    handler.logLevel = variable("TANDEM_LOG").flatMap { TandemLogger.Level($0) } ?? .info
    return handler
  }
}
