/// Why a ``Leader`` could not start.
public enum LeaderError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The configured endpoint is not a ZeroMQ endpoint (`tcp://host:port`, `ipc://path`,
  /// `inproc://name`).
  case invalidEndpoint(String)

  public var description: String {
    switch self {
    case .invalidEndpoint(let text):
      "'\(text)' is not an endpoint: use tcp://HOST:PORT (PORT may be *), ipc://PATH or inproc://NAME"
    }
  }
}
