/// Where metrics are served: `HOST:PORT`, as `--metrics` takes it (`127.0.0.1:9101`,
/// `0.0.0.0:9101` for every interface, `[::1]:9101`, port 0 for any free one).
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// The address `text` names, or `nil` when it is not `HOST:PORT` with a port in 0...65535.
  public init?(_ text: String) {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, !host.contains(" "),
      let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
    else { return nil }
    self.init(host: host, port: port)
  }

  /// What an address looks like, for an error message.
  public static let expected = "HOST:PORT, e.g. 127.0.0.1:9101 (0.0.0.0:9101 for every host)"

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// The error for `text` that is not an address, saying what one looks like.
  static func invalid(_ text: String) -> MetricsServerError {
    MetricsServerError(
      address: MetricsAddress(host: text, port: 0),
      reason: "'\(text)' is not \(expected)")
  }
}
