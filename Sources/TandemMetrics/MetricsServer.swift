import MicroHTTP
import TandemSync

/// Serves metrics registries at `/metrics` in the Prometheus text exposition format, over
/// MicroHTTP: the one call that makes a leader's, a follower's or an application's metrics
/// scrapable.
///
/// ```swift
/// let follower = try await Follower<AppState>(configuration: configuration, registry: registry)
/// let metrics = try MetricsServer(serving: [follower.metrics], at: "127.0.0.1:9102")
/// // ... until the process stops:
/// metrics.stop()
/// ```
///
/// Every scrape asks each registry's collectors, in order; a leader's and a follower's read
/// their counters on their own I/O thread, so serving costs their hot paths nothing.
public final class MetricsServer: Sendable {
  private let server: HTTPServer
  /// The address it serves on, with the real port (when given port 0).
  public let address: MetricsAddress

  /// Serves `registries` at `http://address/metrics` (port 0: any free port).
  ///
  /// - Throws: ``MetricsServerError`` when the address cannot be bound.
  public init(serving registries: [MetricsRegistry], at address: MetricsAddress) throws {
    var router = Router()
    router.get("/metrics") { _ in
      let text = await MetricsRegistry.exposition(of: registries)
      return HTTPResponse(
        status: 200, headers: ["Content-Type": MetricsExposition.contentType],
        body: Array(text.utf8))
    }
    do {
      server = try HTTPServer(
        configuration: HTTPServer.Configuration(
          host: address.host, port: address.port, keepAliveInterval: nil),
        handler: router.handler)
    } catch {
      throw MetricsServerError(address: address, reason: "\(error)")
    }
    self.address = MetricsAddress(host: address.host, port: server.port)
  }

  /// Serves `registries` at the `HOST:PORT` that `text` names.
  public convenience init(serving registries: [MetricsRegistry], at text: String) throws {
    guard let address = MetricsAddress(text) else { throw MetricsAddress.invalid(text) }
    try self.init(serving: registries, at: address)
  }

  /// Serves `registries` at `address` when one is given, and logs the URL at `info` with a
  /// logger labelled `label` (port 0 becomes a free port); `nil` without an address.
  public static func start(
    serving registries: [MetricsRegistry], at address: MetricsAddress?, label: String
  ) throws -> MetricsServer? {
    guard let address else { return nil }
    let server = try MetricsServer(serving: registries, at: address)
    TandemLogger(label: label).info("metrics at \(server.url)")
    return server
  }

  /// The URL Prometheus scrapes, e.g. `http://127.0.0.1:9102/metrics`.
  public var url: String { "http://\(address)/metrics" }

  /// Stops serving.
  public func stop() {
    server.stop()
  }
}

/// Why a ``MetricsServer`` could not start.
public struct MetricsServerError: Error, CustomStringConvertible {
  public var address: MetricsAddress
  public var reason: String

  public var description: String {
    "cannot serve metrics on \(address): \(reason) (is the port taken? give another --metrics)"
  }
}
