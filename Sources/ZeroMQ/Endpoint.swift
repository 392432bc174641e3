/// Where a socket binds or connects: a transport and its address, as libzmq spells it.
///
/// ```swift
/// try socket.bind(.tcp(host: "127.0.0.1"))            // tcp://127.0.0.1:* (any free port)
/// let bound = try socket.lastEndpoint                  // tcp://127.0.0.1:49152
/// try other.connect(.tcp(host: "127.0.0.1", port: 49152))
/// try pair.bind(.inproc("commands"))                   // inproc://commands
/// try server.bind(.ipc(path: "/tmp/tandem.sock"))       // ipc:///tmp/tandem.sock
/// ```
public struct Endpoint: Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The endpoint in libzmq's syntax: `transport://address`.
  public var description: String

  /// Parses an endpoint in libzmq's spelling, such as `"tcp://127.0.0.1:5555"`.
  ///
  /// Returns `nil` when the text has no `transport://` prefix or names a transport other than
  /// tcp, ipc, inproc, pgm, epgm or vmci.
  public init?(parsing text: String) {
    guard let separator = Endpoint.separator(in: text), !text[separator.upperBound...].isEmpty
    else { return nil }
    let transport = text[..<separator.lowerBound]
    guard ["tcp", "ipc", "inproc", "pgm", "epgm", "vmci"].contains(transport) else { return nil }
    description = text
  }

  /// An endpoint from a string literal; traps when the literal is not a valid endpoint.
  public init(stringLiteral text: String) {
    guard let endpoint = Endpoint(parsing: text) else {
      preconditionFailure("'\(text)' is not a ZeroMQ endpoint (transport://address)")
    }
    self = endpoint
  }

  /// `tcp://host:port`; a `nil` port binds any free port (`tcp://host:*`).
  ///
  /// `host` is an IP address, a host name (for connect) or an interface name or `*` (for bind).
  /// IPv6 addresses are bracketed for you.
  public static func tcp(host: String, port: UInt16? = nil) -> Endpoint {
    let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return Endpoint(unchecked: "tcp://\(hostPart):\(port.map(String.init) ?? "*")")
  }

  /// `ipc://path`: a Unix domain socket at `path`.
  public static func ipc(path: String) -> Endpoint {
    Endpoint(unchecked: "ipc://\(path)")
  }

  /// `inproc://name`: in-process transport between sockets of one ``Context``.
  public static func inproc(_ name: String) -> Endpoint {
    Endpoint(unchecked: "inproc://\(name)")
  }

  private init(unchecked text: String) {
    description = text
  }

  /// The transport: `tcp`, `ipc`, `inproc`...
  public var transport: Substring {
    description[..<Endpoint.separator(in: description)!.lowerBound]
  }

  /// The address after `transport://`.
  public var address: Substring {
    description[Endpoint.separator(in: description)!.upperBound...]
  }

  /// The TCP port of a `tcp://host:port` endpoint with a numeric port, else `nil`.
  public var port: UInt16? {
    guard transport == "tcp", let colon = address.lastIndex(of: ":") else { return nil }
    return UInt16(address[address.index(after: colon)...])
  }

  /// Where `://` is in `text`.
  private static func separator(in text: String) -> Range<String.Index>? {
    var index = text.startIndex
    while index < text.endIndex {
      if text[index...].hasPrefix("://") {
        return index..<text.index(index, offsetBy: 3)
      }
      index = text.index(after: index)
    }
    return nil
  }
}
