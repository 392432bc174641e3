/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The host is not an IPv4 or IPv6 address literal.
  case invalidHost(String)
  /// `MHD_start_daemon` failed; `errno` is the system error it left (such as `EADDRINUSE`).
  case startFailed(host: String, port: Int, errno: Int32)

  /// A sentence saying what failed.
  public var description: String {
    switch self {
    case .invalidHost(let host):
      return "'\(host)' is not an IPv4 or IPv6 address"
    case .startFailed(let host, let port, let errno):
      return "MHD_start_daemon failed on \(host):\(port) (errno \(errno))"
    }
  }
}
